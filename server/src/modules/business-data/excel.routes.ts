import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZExportViewDataInput, ZImportTemplateQuery, ZImportViewDataQuery, ZImportViewDataResult } from '@tessera/core/contracts/business-data';
import { signedIn } from '../../platform/route-access.ts';
import { attachmentDisposition as disposition, XLSX_TYPE } from '../../platform/excel.ts';
import { acceptWorkbookUploads, workbookBytes, workbookUploadDescription } from '../../platform/excel-reader.ts';
import { exportViewData, importViewData, MAX_IMPORT_ROWS } from './excel.service.ts';
import { importTemplate } from './import-template.ts';
import { ImportThread } from './import-thread.ts';


/** Excel export (streamed), import template and import (all or nothing) of a master view. */
export async function registerExcelRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = '/app/business-data';
  app.post(`${base}/export-view-data`, {
    config: signedIn(),
    schema: { summary: 'Every filtered row of a master view as xlsx (streamed)', body: ZExportViewDataInput },
    handler: async (req, reply) => {
      const { fileName, stream } = await exportViewData(req.ctx, req.body);
      reply.header('content-type', XLSX_TYPE).header('content-disposition', disposition(fileName));
      return reply.send(stream);
    },
  });
  app.get(`${base}/import-template`, {
    config: signedIn(),
    schema: { summary: 'The import template of a master view (one column per editable field)', querystring: ZImportTemplateQuery },
    handler: async (req, reply) => {
      const { fileName, content } = await importTemplate(req.ctx, req.query);
      reply.header('content-type', XLSX_TYPE).header('content-disposition', disposition(fileName));
      return reply.send(content);
    },
  });
  acceptWorkbookUploads(fastify);
  const importThread = new ImportThread();
  fastify.addHook('onClose', () => importThread.stop());
  app.post(`${base}/import-view-data`, {
    config: signedIn(),
    schema: {
      summary: 'Import rows from Excel: read row by row, every row validated, all or nothing, row-level errors',
      description: workbookUploadDescription(MAX_IMPORT_ROWS, 'First sheet the master rows, a sheet per view below the master. Any invalid row → 400 with row errors and nothing imported'),
      querystring: ZImportViewDataQuery,
      response: { 200: ZImportViewDataResult },
    },
    handler: (req) => importViewData(req.ctx, req.query, workbookBytes(req.ctx, req.body), importThread),
  });
}
