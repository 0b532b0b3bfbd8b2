import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZMenuList } from '@tessera/core/contracts/menus';
import { P } from '@tessera/core/contracts/permissions';
import { requirePermission, signedIn } from '../../platform/route-access.ts';
import './menus.permissions.ts';
import { allSystemMenus, listMenusFor } from './menus.service.ts';

export async function menuRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // spec §7: header + sider of the system areas, filtered by the caller's access on the server.
  app.post('/system/menu/list', {
    config: signedIn(),
    schema: { operationId: 'listMyMenus', summary: 'System menus (header and sider) the caller may open; titles are i18n keys', response: { 200: ZMenuList } },
    handler: async (req) => listMenusFor(req.user!.access),
  });

  // The whole fixed tree with each item's required codes, for the menu administration page.
  app.get('/system/menu/definitions', {
    config: requirePermission(P.Menus),
    schema: { summary: 'Every system menu item with the permission codes it needs (unfiltered)', response: { 200: ZMenuList } },
    handler: async () => allSystemMenus(),
  });
}
