import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParam } from '@tessera/core/contracts/common';
import {
  ZControlDesigner,
  ZCopyPageDefinitionInput,
  ZCreatePageDefinitionInput,
  ZDesignCheckResult,
  ZImportPageDefinitionInput,
  ZImportPageDefinitionResult,
  ZPageDefinitionDetail,
  ZPageDefinitionList,
  ZPageDefinitionQuery,
  ZPageExportDocument,
  ZPageExportQuery,
  ZPageVersionDetail,
  ZPageVersionList,
  ZPublishInput,
  ZPublishPlan,
  ZPublishResult,
  ZRenamePageDefinitionInput,
  ZSavePageDraftInput,
  ZVersionParam,
} from '@tessera/core/contracts/pages';
import { P } from '@tessera/core/contracts/permissions';
import { requirePermission } from '../../platform/route-access.ts';
import { controlDesigner } from './control-designer.ts';
import './pages.permissions.ts';
import {
  copyPage,
  createPageDefinition,
  deletePageDefinition,
  exportPage,
  getPageDefinition,
  getPageVersion,
  importPage,
  listPageDefinitions,
  listPageVersions,
  renamePage,
  saveDraft,
} from './pages.service.ts';
import { checkPage, publishPage, publishPlan, rollbackPage } from './publish.service.ts';

export async function pageRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = '/app/page-definition';

  app.get('/app/control-designer', {
    config: requirePermission(P.Pages),
    schema: { summary: 'The designer palette: control and view types with their editable properties, button actions', response: { 200: ZControlDesigner } },
    handler: () => controlDesigner(),
  });

  app.get(base, {
    config: requirePermission(P.Pages),
    schema: { summary: 'Page definitions (search, status, paging, sorting)', querystring: ZPageDefinitionQuery, response: { 200: ZPageDefinitionList } },
    handler: (req) => listPageDefinitions(app.db, req.query),
  });

  app.get(`${base}/:id`, {
    config: requirePermission(P.Pages),
    schema: { summary: 'A page definition with its draft', params: ZIdParam, response: { 200: ZPageDefinitionDetail } },
    handler: (req) => getPageDefinition(app.db, req.params.id),
  });

  app.post(base, {
    config: requirePermission(P.PagesCreate),
    schema: { summary: 'Create a page definition (draft)', body: ZCreatePageDefinitionInput, response: { 200: ZPageDefinitionDetail } },
    handler: (req) => createPageDefinition(req.ctx, req.body),
  });

  app.put(`${base}/:id`, {
    config: requirePermission(P.PagesUpdate),
    schema: { summary: 'Save the draft (optimistic concurrency: 409 when the stamp is stale)', params: ZIdParam, body: ZSavePageDraftInput, response: { 200: ZPageDefinitionDetail } },
    handler: (req) => saveDraft(req.ctx, req.params.id, req.body),
  });

  app.post(`${base}/:id/copy`, {
    config: requirePermission(P.PagesCreate),
    schema: { summary: 'Copy a page (new ids, never published)', params: ZIdParam, body: ZCopyPageDefinitionInput, response: { 200: ZPageDefinitionDetail } },
    handler: (req) => copyPage(req.ctx, req.params.id, req.body),
  });

  app.put(`${base}/:id/rename`, {
    config: requirePermission(P.PagesUpdate),
    schema: { summary: 'Rename a page (the code only before the first publish)', params: ZIdParam, body: ZRenamePageDefinitionInput, response: { 200: ZPageDefinitionDetail } },
    handler: (req) => renamePage(req.ctx, req.params.id, req.body),
  });

  app.delete(`${base}/:id`, {
    config: requirePermission(P.PagesDelete),
    schema: { summary: 'Delete a page (409 while business menus use it); tables with data are kept', params: ZIdParam, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await deletePageDefinition(req.ctx, req.params.id);
      return reply.status(204).send(null);
    },
  });

  app.get(`${base}/:id/export`, {
    config: requirePermission(P.Pages),
    schema: { summary: 'Export a page as JSON (draft or latest published version)', params: ZIdParam, querystring: ZPageExportQuery, response: { 200: ZPageExportDocument } },
    handler: async (req, reply) => {
      const doc = await exportPage(req.ctx, req.params.id, req.query.source);
      reply.header('content-disposition', `attachment; filename="${doc.page.code}.page.json"`);
      return doc;
    },
  });

  app.post(`${base}/import`, {
    config: requirePermission(P.PagesCreate),
    schema: { summary: 'Import an exported page as a fresh page (new ids; 400 when the code is taken)', body: ZImportPageDefinitionInput, response: { 200: ZImportPageDefinitionResult } },
    handler: (req) => importPage(req.ctx, req.body),
  });

  app.get(`${base}/:id/versions`, {
    config: requirePermission(P.Pages),
    schema: { summary: 'Published versions, newest first, with their change summaries', params: ZIdParam, response: { 200: ZPageVersionList } },
    handler: (req) => listPageVersions(app.db, req.params.id),
  });

  app.get(`${base}/:id/versions/:version`, {
    config: requirePermission(P.Pages),
    schema: { summary: 'One published version with its definition', params: ZVersionParam, response: { 200: ZPageVersionDetail } },
    handler: (req) => getPageVersion(req.ctx, req.params.id, req.params.version),
  });

  app.post(`${base}/:id/rollback/:version`, {
    config: requirePermission(P.PagesPublish),
    schema: { summary: 'Roll back: the draft becomes that version, published as a new version', params: ZVersionParam, body: ZPublishInput.optional(), response: { 200: ZPublishResult } },
    handler: (req) => rollbackPage(req.ctx, req.params.id, req.params.version, req.body ?? {}),
  });

  app.post(`${base}/:id/check`, {
    config: requirePermission(P.Pages),
    schema: { summary: 'Design-time checks of the draft', params: ZIdParam, response: { 200: ZDesignCheckResult } },
    handler: (req) => checkPage(req.ctx, req.params.id),
  });

  app.get(`${base}/:id/publish-plan`, {
    config: requirePermission(P.PagesPublish),
    schema: { summary: 'Dry run of publishing the draft: schema changes and blockers', params: ZIdParam, response: { 200: ZPublishPlan } },
    handler: (req) => publishPlan(req.ctx, req.params.id),
  });

  app.post(`${base}/:id/publish`, {
    config: requirePermission(P.PagesPublish),
    schema: { summary: 'Publish the draft as the next version (one transaction)', params: ZIdParam, body: ZPublishInput.optional(), response: { 200: ZPublishResult } },
    handler: (req) => publishPage(req.ctx, req.params.id, req.body ?? {}),
  });
}
