import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParam } from '@tessera/core/contracts/common';
import {
  IMPORT_MAX_DICTIONARY_ITEMS,
  ZDictionary,
  ZDictionaryInput,
  ZDictionaryList,
  ZDictionaryOptionList,
  ZDictionaryOptionsQuery,
  ZDictionaryQuery,
  ZImportDictionaryItemsResult,
  ZSysDictionary,
  ZSysDictionaryIdParam,
  ZSysDictionaryList,
  ZSysDictionaryQuery,
} from '@tessera/core/contracts/dictionaries';
import { P } from '@tessera/core/contracts/permissions';
import { notFound } from '../../platform/errors.ts';
import { pageWindow } from '../../platform/paging.ts';
import { requirePermission, signedIn } from '../../platform/route-access.ts';
import { attachmentDisposition, XLSX_TYPE } from '../../platform/excel.ts';
import { acceptWorkbookUploads, workbookBytes, workbookUploadDescription } from '../../platform/excel-reader.ts';
import { exportDictionaryItems, importDictionaryItems } from './dictionaries-excel.service.ts';
import './dictionaries.permissions.ts';
import {
  createDictionary,
  deleteDictionary,
  getDictionary,
  listDictionaries,
  listDictionaryOptions,
  updateDictionary,
} from './dictionaries.service.ts';
import { findSysDictionary, SYS_DICTIONARIES } from './sys-dictionaries.ts';

export async function dictionaryRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = '/app/business-dictionary';
  // The items import's body is the workbook's raw bytes (this plugin's scope only).
  acceptWorkbookUploads(fastify);

  // Reading is open to every signed-in user: drop-down controls on business pages need the options.
  app.get(base, {
    config: signedIn(),
    schema: { summary: 'Business dictionaries, paged: Filter (code, title, description), IsTree; Sorting code|creationTime|lastModificationTime', querystring: ZDictionaryQuery, response: { 200: ZDictionaryList } },
    handler: (req) => listDictionaries(req.ctx, req.query),
  });

  app.get(`${base}/options`, {
    config: signedIn(),
    schema: {
      summary: 'The options of a business or system dictionary by code, in the caller\'s language (enabled items unless includeDisabled)',
      querystring: ZDictionaryOptionsQuery,
      response: { 200: ZDictionaryOptionList },
    },
    handler: async (req) => ({
      items: await listDictionaryOptions(app.db, req.query.dictionaryCode, req.ctx.acceptLanguage || 'zh-CN', {
        includeDisabled: req.query.includeDisabled,
      }),
    }),
  });

  app.get(`${base}/:id`, {
    config: signedIn(),
    schema: { summary: 'One dictionary with its items in display order', params: ZIdParam, response: { 200: ZDictionary } },
    handler: (req) => getDictionary(req.ctx, req.params.id),
  });

  app.post(base, {
    config: requirePermission(P.DictionariesCreate),
    schema: { summary: 'Create a dictionary with its items', body: ZDictionaryInput, response: { 200: ZDictionary } },
    handler: (req) => createDictionary(req.ctx, req.body),
  });

  app.put(`${base}/:id`, {
    config: requirePermission(P.DictionariesUpdate),
    schema: { summary: 'Save a dictionary with all its items (item codes never change)', params: ZIdParam, body: ZDictionaryInput, response: { 200: ZDictionary } },
    handler: (req) => updateDictionary(req.ctx, req.params.id, req.body),
  });

  app.delete(`${base}/:id`, {
    config: requirePermission(P.DictionariesDelete),
    schema: { summary: 'Delete a dictionary; refused (400 DictionaryInUse, naming the pages) while a published page uses it', params: ZIdParam, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await deleteDictionary(req.ctx, req.params.id);
      return reply.status(204).send(null);
    },
  });

  app.get(`${base}/:id/export`, {
    config: requirePermission(P.Dictionaries),
    schema: { summary: 'The items as an Excel workbook (also the import template)', params: ZIdParam },
    handler: async (req, reply) => {
      const { fileName, content } = await exportDictionaryItems(req.ctx, req.params.id);
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', attachmentDisposition(fileName))
        .header('cache-control', 'no-store')
        .send(content);
    },
  });

  app.post(`${base}/:id/import`, {
    config: requirePermission(P.DictionariesUpdate),
    schema: {
      summary: 'Import items from Excel, matched by code',
      description: workbookUploadDescription(IMPORT_MAX_DICTIONARY_ITEMS, 'Laid out like the export. Any invalid row → 400 with row errors and nothing imported'),
      params: ZIdParam,
      response: { 200: ZImportDictionaryItemsResult },
    },
    handler: (req) => importDictionaryItems(req.ctx, req.params.id, workbookBytes(req.ctx, req.body)),
  });

  // System dictionaries: built in and read-only.
  app.get('/app/sys-dictionaries', {
    config: signedIn(),
    schema: { summary: 'System dictionaries (read-only), paged: Filter (code, title)', querystring: ZSysDictionaryQuery, response: { 200: ZSysDictionaryList } },
    handler: async (req) => {
      const needle = req.query.Filter?.trim().toLowerCase();
      const matching = needle
        ? SYS_DICTIONARIES.filter((d) => d.code.toLowerCase().includes(needle) || Object.values(d.title).some((t) => t.toLowerCase().includes(needle)))
        : SYS_DICTIONARIES;
      const { offset, limit } = pageWindow({ ...req.query, Sorting: undefined });
      return { items: matching.slice(offset, offset + limit), totalCount: matching.length };
    },
  });

  app.get('/app/sys-dictionaries/:id', {
    config: signedIn(),
    schema: { summary: 'One system dictionary by its code', params: ZSysDictionaryIdParam, response: { 200: ZSysDictionary } },
    handler: async (req) => {
      const found = findSysDictionary(req.params.id);
      if (!found) throw notFound({ id: req.params.id });
      return found;
    },
  });
}
