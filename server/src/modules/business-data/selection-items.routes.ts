import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZSelectionItemList, ZSelectionItemQuery } from '@tessera/core/contracts/identity';
import { signedIn } from '../../platform/route-access.ts';
import { selectionItems } from './selection-items.service.ts';

/** The selection items every picker uses (the URL stays under /identity, where the web app calls it). */
export async function selectionItemRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Signed in, and then in a context: a picker on a page the caller can open, or an administrator's screen.
  app.get('/identity/selection-items', {
    config: signedIn(),
    schema: {
      summary: 'Selection items by spec type (1 unit, 3 user, 4 role) for a picker control (pageId + dataControlId) or an administrator: [{ id, title, description }]',
      querystring: ZSelectionItemQuery,
      response: { 200: ZSelectionItemList },
    },
    handler: (req) => selectionItems(req.ctx, req.query),
  });
}
