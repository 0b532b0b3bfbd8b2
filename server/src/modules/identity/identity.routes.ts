import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZSelectionItemList, ZSelectionItemQuery } from '@tessera/core/contracts/identity';
import { signedIn } from '../../platform/route-access.ts';
import './identity.permissions.ts';
import { organizationUnitRoutes } from './organization-units.routes.ts';
import { roleRoutes } from './roles.routes.ts';
import { selectionItems } from './selection-items.service.ts';
import { userRoutes } from './users.routes.ts';

/** Organisation units, users, roles, and the selection items every picker uses. */
export async function identityRoutes(fastify: FastifyInstance) {
  await fastify.register(organizationUnitRoutes);
  await fastify.register(userRoutes);
  await fastify.register(roleRoutes);

  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Signed in, and then in a context: a picker on a page the caller can open, or an administrator's screen.
  app.get('/identity/selection-items', {
    config: signedIn(),
    schema: {
      tags: ['identity: selection items'],
      summary: 'Selection items by spec type (1 unit, 3 user, 4 role) for a picker control (pageId + dataControlId) or an administrator: [{ id, title, description }]',
      querystring: ZSelectionItemQuery,
      response: { 200: ZSelectionItemList },
    },
    handler: (req) => selectionItems(app, req, req.query),
  });
}
