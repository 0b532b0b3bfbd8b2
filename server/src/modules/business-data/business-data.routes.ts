import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZDeleteDataInput,
  ZDeleteDataResult,
  ZDropDownResult,
  ZOpenWindowResult,
  ZPageDataResult,
  ZQueryDropDownInput,
  ZQueryOpenWindowInput,
  ZQueryPageDataInput,
  ZQueryViewDataInput,
  ZQueryViewDataResult,
  ZRecordHistoryList,
  ZRecordHistoryQuery,
  ZReserveDocumentNumberInput,
  ZSourceDefaultInput,
  ZSourceDefaultResult,
  ZReserveDocumentNumberResult,
  ZVoidDocumentNumberInput,
  ZSavePageInput,
  ZRunButtonProcedureInput,
  ZRunButtonProcedureResult,
  ZSaveViewInput,
  ZSaveViewResult,
  ZViewPreferences,
  ZViewPreferencesInput,
  ZViewPreferencesQuery,
  ZPageRuntime,
  ZPageRuntimeQuery,
} from '@tessera/core/contracts/business-data';
import { signedIn } from '../../platform/route-access.ts';
import { getViewPreferences, pageRuntime, putViewPreferences, recordHistory } from './history.service.ts';
import { queryDropDownData, queryOpenWindowData, reserveNumberForControl, sourceDefaultForControl, voidNumberForControl } from './lookup.service.ts';
import { queryPageData, queryViewData } from './query.service.ts';
import { deleteData, savePage, saveView } from './save.service.ts';
import { runButtonProcedure } from './button-procedure.service.ts';
import { registerExcelRoutes } from './excel.routes.ts';

/*
 * spec §7 business-data calls. The routes are open to signed-in users; each service checks the
 * page's own codes (`Biz.<page>.Access`, button and field codes from the published design), which
 * are data, not fixed route permissions.
 */
export async function businessDataRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = '/app/business-data';
  const guard = signedIn();

  app.get(`${base}/page-runtime`, {
    config: guard,
    schema: { summary: "The published page for the runtime, with the caller's actions and field rights", querystring: ZPageRuntimeQuery, response: { 200: ZPageRuntime } },
    handler: (req) => pageRuntime(req.ctx, req.query),
  });
  app.post(`${base}/query-view-data`, {
    config: guard,
    schema: { summary: 'Rows of one view: filter conditions, sorting, paging; exact totalCount below 10,000 rows, estimated (flagged) above', body: ZQueryViewDataInput, response: { 200: ZQueryViewDataResult } },
    handler: (req) => queryViewData(req.ctx, req.body),
  });
  app.post(`${base}/query-page-data`, {
    config: guard,
    schema: { summary: 'One record with every child view (one query per view)', body: ZQueryPageDataInput, response: { 200: ZPageDataResult } },
    handler: (req) => queryPageData(req.ctx, req.body),
  });
  app.post(`${base}/save-page`, {
    config: guard,
    schema: { summary: 'Save a master record with its child rows in one transaction (409 on a stale ConcurrencyStamp)', body: ZSavePageInput, response: { 200: ZPageDataResult } },
    handler: (req) => savePage(req.ctx, req.body),
  });
  app.post(`${base}/run-procedure`, {
    config: guard,
    schema: {
      summary: "A run-procedure page button: save the record (as save-page), then run the button's data factory procedure with values from the saved record — in the save's transaction (its failure undoes the save) or after it (the save stands; the failure is answered in `error`)",
      body: ZRunButtonProcedureInput,
      response: { 200: ZRunButtonProcedureResult },
    },
    handler: (req) => runButtonProcedure(req.ctx, req.body),
  });
  app.post(`${base}/save-view`, {
    config: guard,
    schema: { summary: 'Save rows of one view in one transaction', body: ZSaveViewInput, response: { 200: ZSaveViewResult } },
    handler: (req) => saveView(req.ctx, req.body),
  });
  app.post(`${base}/delete-data`, {
    config: guard,
    schema: { summary: 'Delete master records (batch, one transaction)', body: ZDeleteDataInput, response: { 200: ZDeleteDataResult } },
    handler: (req) => deleteData(req.ctx, req.body),
  });
  app.post(`${base}/query-drop-down-data`, {
    config: guard,
    schema: { summary: "Options of a list or lookup control (static, dictionary or the control's source view)", body: ZQueryDropDownInput, response: { 200: ZDropDownResult } },
    handler: (req) => queryDropDownData(req.ctx, req.body),
  });
  app.post(`${base}/query-open-windows-data`, {
    config: guard,
    schema: { summary: "The lookup window of a control: the server resolves its source view and join conditions", body: ZQueryOpenWindowInput, response: { 200: ZOpenWindowResult } },
    handler: (req) => queryOpenWindowData(req.ctx, req.body),
  });
  app.post(`${base}/source-default`, {
    config: guard,
    schema: { summary: "A new record's default from its control's saved query of a data source (extraProperties.defaultSourceQuery)", body: ZSourceDefaultInput, response: { 200: ZSourceDefaultResult } },
    handler: (req) => sourceDefaultForControl(req.ctx, req.body),
  });
  app.post(`${base}/reserve-document-number`, {
    config: guard,
    schema: { summary: 'Reserve the document number of a new record (docNoOccasion 1)', body: ZReserveDocumentNumberInput, response: { 200: ZReserveDocumentNumberResult } },
    handler: (req) => reserveNumberForControl(req.ctx, req.body),
  });
  app.post(`${base}/void-document-number`, {
    config: guard,
    schema: { summary: "Void the reserved number of a new record left unsaved (the reserving user's own)", body: ZVoidDocumentNumberInput, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await voidNumberForControl(req.ctx, req.body);
      return reply.status(204).send(null);
    },
  });
  app.get(`${base}/record-history`, {
    config: guard,
    schema: { summary: "A record's change history (who, when, before → after per field)", querystring: ZRecordHistoryQuery, response: { 200: ZRecordHistoryList } },
    handler: (req) => recordHistory(req.ctx, req.query),
  });
  app.get(`${base}/view-preferences`, {
    config: guard,
    schema: { summary: "The caller's saved filters and columns of a view", querystring: ZViewPreferencesQuery, response: { 200: ZViewPreferences } },
    handler: (req) => getViewPreferences(req.ctx, req.query),
  });
  app.put(`${base}/view-preferences`, {
    config: guard,
    schema: { summary: "Replace the caller's saved filters and columns of a view", body: ZViewPreferencesInput, response: { 200: ZViewPreferences } },
    handler: (req) => putViewPreferences(req.ctx, req.body),
  });
  await registerExcelRoutes(app);
}
