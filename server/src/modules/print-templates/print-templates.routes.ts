import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParam } from '@tessera/core/contracts/common';
import { ZBindablePageList, ZBindablePageQuery } from '@tessera/core/contracts/pages';
import { P } from '@tessera/core/contracts/permissions';
import {
  ZCopyPrintTemplateInput,
  ZCreatePrintTemplateInput,
  ZImportPrintTemplateInput,
  ZPreviewPrintInput,
  ZPrintablesQuery,
  ZPrintableList,
  ZPrintCount,
  ZPrintCountQuery,
  ZPrintPageDesign,
  ZPrintTemplateDetail,
  ZPrintTemplateExportDocument,
  ZPrintTemplateList,
  ZPrintTemplateQuery,
  ZPrintTemplateVersionList,
  ZPrintTemplateVersionParams,
  ZPublishPrintTemplateInput,
  ZRenderPrintInput,
  ZUpdatePrintTemplateInput,
} from '@tessera/core/contracts/print-templates';
import { attachmentDisposition, safeFileName } from '../../platform/excel.ts';
import { listBindablePages } from '../pages/index.ts';
import { requirePermission, signedIn } from '../../platform/route-access.ts';
import './print-templates.permissions.ts';
import { getPrintCount, listPrintables, previewPrint, renderPrint, type PrintedPdf } from './print-render.service.ts';
import {
  copyPrintTemplate,
  createPrintTemplate,
  deletePrintTemplate,
  exportPrintTemplate,
  getPrintPageDesign,
  getPrintTemplate,
  importPrintTemplate,
  listPrintTemplates,
  listPrintTemplateVersions,
  publishPrintTemplate,
  restorePrintTemplateVersion,
  setPrintTemplateEnabled,
  updatePrintTemplate,
} from './print-templates.service.ts';

const fileName = (name: string, extension: string) => `${safeFileName(name) || 'print-template'}.${extension}`;

/** A PDF answer: shown in the browser's viewer, or a download named by the record's document number. */
const sendPdf = (reply: FastifyReply, printed: PrintedPdf, download: boolean) =>
  reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', attachmentDisposition(printed.fileName, download ? 'attachment' : 'inline'))
    .header('cache-control', 'no-store')
    .send(Buffer.from(printed.pdf.buffer, printed.pdf.byteOffset, printed.pdf.byteLength));

export async function printTemplateRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = '/app/print-template';
  const access = requirePermission(P.PrintTemplates);

  app.get(base, {
    config: access,
    schema: {
      summary: 'Print templates, paged: Filter (name, description), Enabled, Status, PageId; Sorting name|status|enabled|publishedVersion|creationTime|lastModificationTime',
      querystring: ZPrintTemplateQuery,
      response: { 200: ZPrintTemplateList },
    },
    handler: (req) => listPrintTemplates(req.ctx, req.query),
  });

  app.get(`${base}/bindable-pages`, {
    config: access,
    schema: { summary: 'Published pages a template may bind to, by code: Filter (code, name)', querystring: ZBindablePageQuery, response: { 200: ZBindablePageList } },
    handler: (req) => listBindablePages(req.ctx.db, req.query),
  });

  app.get(`${base}/page-design/:id`, {
    config: access,
    schema: { summary: 'A page\'s latest published design (views and controls for the field picker); 404 before its first publish', params: ZIdParam, response: { 200: ZPrintPageDesign } },
    handler: (req) => getPrintPageDesign(req.ctx, req.params.id),
  });

  app.get(`${base}/for-page`, {
    config: signedIn(),
    schema: { summary: 'The enabled, published templates of a page the caller may print with (their own permission codes)', querystring: ZPrintablesQuery, response: { 200: ZPrintableList } },
    handler: (req) => listPrintables(req.ctx, req.query.pageId),
  });

  app.get(`${base}/print-count`, {
    config: signedIn(),
    schema: { summary: 'How often a record was printed, and last by whom (needs reading the record)', querystring: ZPrintCountQuery, response: { 200: ZPrintCount } },
    handler: (req) => getPrintCount(req.ctx, req.query.pageId, req.query.recordId),
  });

  app.post(`${base}/preview`, {
    config: access,
    schema: { summary: 'A layout (saved or not) as a PDF, with a real record of the page or sample values', body: ZPreviewPrintInput, produces: ['application/pdf'] },
    handler: async (req, reply) => sendPdf(reply, await previewPrint(req.ctx, req.body), false),
  });

  app.post(`${base}/import`, {
    config: access,
    schema: { summary: 'Import an exported JSON file as a new draft (bound to pageId, else the file\'s page by id, else by code)', body: ZImportPrintTemplateInput, response: { 200: ZPrintTemplateDetail } },
    handler: (req) => importPrintTemplate(req.ctx, req.body),
  });

  app.get(`${base}/:id`, {
    config: access,
    schema: { summary: 'One template with its draft layout', params: ZIdParam, response: { 200: ZPrintTemplateDetail } },
    handler: (req) => getPrintTemplate(req.ctx, req.params.id),
  });

  app.post(base, {
    config: access,
    schema: { summary: 'Create a template bound to a page (disabled, never published)', body: ZCreatePrintTemplateInput, response: { 200: ZPrintTemplateDetail } },
    handler: (req) => createPrintTemplate(req.ctx, req.body),
  });

  app.put(`${base}/:id`, {
    config: access,
    schema: { summary: 'Save the draft (409 on a stale concurrency stamp)', params: ZIdParam, body: ZUpdatePrintTemplateInput, response: { 200: ZPrintTemplateDetail } },
    handler: (req) => updatePrintTemplate(req.ctx, req.params.id, req.body),
  });

  app.post(`${base}/:id/copy`, {
    config: access,
    schema: { summary: 'Copy a template\'s draft as a new, disabled, never-published template', params: ZIdParam, body: ZCopyPrintTemplateInput, response: { 200: ZPrintTemplateDetail } },
    handler: (req) => copyPrintTemplate(req.ctx, req.params.id, req.body),
  });

  app.delete(`${base}/:id`, {
    config: access,
    schema: { summary: 'Delete a template (kept as deleted for the audit trail)', params: ZIdParam, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await deletePrintTemplate(req.ctx, req.params.id);
      return reply.status(204).send(null);
    },
  });

  app.post(`${base}/:id/enable`, {
    config: access,
    schema: { summary: 'Enable a published template (offered for printing)', params: ZIdParam, response: { 200: ZPrintTemplateDetail } },
    handler: (req) => setPrintTemplateEnabled(req.ctx, req.params.id, true),
  });

  app.post(`${base}/:id/disable`, {
    config: access,
    schema: { summary: 'Disable a template (no longer offered for printing)', params: ZIdParam, response: { 200: ZPrintTemplateDetail } },
    handler: (req) => setPrintTemplateEnabled(req.ctx, req.params.id, false),
  });

  app.post(`${base}/:id/publish`, {
    config: access,
    schema: {
      summary: 'Publish the draft as version N+1 after checking it against the bound page (400 listing fields, views and formulas the page lacks); the first publish enables it',
      params: ZIdParam,
      body: ZPublishPrintTemplateInput,
      response: { 200: ZPrintTemplateDetail },
    },
    handler: (req) => publishPrintTemplate(req.ctx, req.params.id, req.body),
  });

  app.get(`${base}/:id/versions`, {
    config: access,
    schema: { summary: 'Published versions, newest first', params: ZIdParam, response: { 200: ZPrintTemplateVersionList } },
    handler: (req) => listPrintTemplateVersions(req.ctx, req.params.id),
  });

  app.post(`${base}/:id/versions/:version/restore`, {
    config: access,
    schema: { summary: 'Make a published version\'s layout the draft', params: ZPrintTemplateVersionParams, response: { 200: ZPrintTemplateDetail } },
    handler: (req) => restorePrintTemplateVersion(req.ctx, req.params.id, req.params.version),
  });

  app.get(`${base}/:id/export`, {
    config: access,
    schema: { summary: 'Export the draft as a JSON file', params: ZIdParam, response: { 200: ZPrintTemplateExportDocument } },
    handler: async (req, reply) => {
      const { name, ...doc } = await exportPrintTemplate(req.ctx, req.params.id);
      reply.header('content-disposition', attachmentDisposition(fileName(name, 'print.json')));
      return doc;
    },
  });

  app.post(`${base}/:id/render`, {
    // The page's read right and the template's own code are checked by the service (per template).
    config: signedIn(),
    schema: {
      summary: 'Records of the template\'s page merged into one PDF with its published layout (page rights, data scopes and field permissions apply; counted per record)',
      params: ZIdParam,
      body: ZRenderPrintInput,
      produces: ['application/pdf'],
    },
    handler: async (req, reply) => sendPdf(reply, await renderPrint(req.ctx, req.params.id, req.body), req.body.download === true),
  });
}
