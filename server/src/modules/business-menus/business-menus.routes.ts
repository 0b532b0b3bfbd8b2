import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZBusinessMenu,
  ZBusinessMenuInput,
  ZBusinessMenuList,
  ZBusinessMenuQuery,
  ZMoveBusinessMenuInput,
  ZPageMenuInput,
  ZPageMenuResult,
} from '@tessera/core/contracts/business-menus';
import { ZIdParam } from '@tessera/core/contracts/common';
import { P } from '@tessera/core/contracts/permissions';
import { requirePermission, signedIn } from '../../platform/route-access.ts';
import './business-menus.permissions.ts';
import { createMenu, createMenuForPage, deleteMenu, getMenu, listMenus, moveMenu, updateMenu } from './business-menus.service.ts';

export async function businessMenuRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // spec §7: the runtime list, filtered by the caller's access (each menu has its Biz.Menu code).
  app.get('/app/business-menu', {
    config: signedIn(),
    schema: { summary: 'Business menus the caller may open, nested; paged by top-level menu', querystring: ZBusinessMenuQuery, response: { 200: ZBusinessMenuList } },
    handler: (req) => listMenus(app.db, req.user!, req.query),
  });

  app.get('/app/business-menu/all', {
    config: requirePermission(P.Menus),
    schema: { summary: 'Every business menu, for menu management', querystring: ZBusinessMenuQuery, response: { 200: ZBusinessMenuList } },
    handler: (req) => listMenus(app.db, null, req.query),
  });

  app.get('/app/business-menu/:id', {
    config: signedIn(),
    schema: { summary: 'One business menu with its sub-menus', params: ZIdParam, response: { 200: ZBusinessMenu } },
    handler: (req) => getMenu(app.db, req.user!, req.params.id),
  });

  app.post('/app/business-menu', {
    config: requirePermission(P.MenusCreate),
    schema: { summary: 'Create a business menu (and its permission code)', body: ZBusinessMenuInput, response: { 200: ZBusinessMenu } },
    handler: (req) => createMenu(req.ctx, req.body),
  });

  app.post('/app/business-menu/for-page', {
    config: requirePermission(P.MenusCreate),
    schema: {
      summary: "A business menu opening a published page, granted to roles with the page's codes (one transaction; granting needs Tessera.Permissions.Grant)",
      body: ZPageMenuInput,
      response: { 200: ZPageMenuResult },
    },
    handler: (req) => createMenuForPage(req.ctx, req.body),
  });

  app.put('/app/business-menu/:id', {
    config: requirePermission(P.MenusUpdate),
    schema: { summary: 'Update a business menu', params: ZIdParam, body: ZBusinessMenuInput, response: { 200: ZBusinessMenu } },
    handler: (req) => updateMenu(req.ctx, req.params.id, req.body),
  });

  app.post('/app/business-menu/:id/move', {
    config: requirePermission(P.MenusUpdate),
    schema: { summary: 'Move a menu (drag and drop): new parent and position', params: ZIdParam, body: ZMoveBusinessMenuInput, response: { 200: ZBusinessMenu } },
    handler: (req) => moveMenu(req.ctx, req.params.id, req.body),
  });

  app.delete('/app/business-menu/:id', {
    config: requirePermission(P.MenusDelete),
    schema: { summary: 'Delete a business menu with its sub-menus', params: ZIdParam, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await deleteMenu(req.ctx, req.params.id);
      return reply.status(204).send(null);
    },
  });
}
