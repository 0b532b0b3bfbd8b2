import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParam } from '@tessera/core/contracts/common';
import {
  IMPORT_MAX_TEXTS,
  ZDictionaryQuery,
  ZExportQuery,
  ZI18nList,
  ZImportPackInput,
  ZImportPackXlsxQuery,
  ZImportPackResult,
  ZLanguagePack,
  ZLanguagePackInput,
  ZLanguagePackList,
  ZLocalizationText,
  ZLocalizationTextInput,
  ZLocalizationVersion,
  ZPagedTextList,
  ZPagedTextsQuery,
  ZPublicLanguagePackList,
} from '@tessera/core/contracts/localization';
import { P } from '@tessera/core/contracts/permissions';
import { publicRoute, requirePermission } from '../../platform/route-access.ts';
import { languageDictionary } from './localization-dictionary.service.ts';
import { attachmentDisposition as attachment, XLSX_TYPE } from '../../platform/excel.ts';
import { acceptWorkbookUploads, workbookBytes, workbookUploadDescription } from '../../platform/excel-reader.ts';
import { exportPackJson, exportPackXlsx, importPackJson, importPackXlsx } from './localization-transfer.service.ts';
import './localization.permissions.ts';
import { currentVersion } from './localization.repository.ts';
import {
  createPack,
  createText,
  deletePack,
  deleteText,
  i18nList,
  listAllPacks,
  listEnabledPacks,
  pagedTexts,
  updatePack,
  updateText,
} from './localization.service.ts';


export async function localizationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = '/app/localization';
  // The Excel import's body is the workbook's raw bytes (this plugin's scope only).
  acceptWorkbookUploads(fastify);

  // spec §7; public: the language selector on the sign-in page lists the packs before anyone signs in.
  app.get(`${base}/language-packs`, {
    config: publicRoute(),
    schema: { summary: 'The enabled language packs (culture, title), for the language selector', response: { 200: ZPublicLanguagePackList } },
    handler: () => listEnabledPacks(app.db),
  });

  app.get(`${base}/language-packs/all`, {
    config: requirePermission(P.Localization),
    schema: { summary: 'Every language pack with its settings and number of texts', response: { 200: ZLanguagePackList } },
    handler: () => listAllPacks(app.db),
  });

  app.post(`${base}/language-pack`, {
    config: requirePermission(P.LocalizationManage),
    schema: { summary: 'Add a language pack', body: ZLanguagePackInput, response: { 200: ZLanguagePack } },
    handler: (req) => createPack(req.ctx, req.body),
  });

  app.put(`${base}/:id/language-pack`, {
    config: requirePermission(P.LocalizationManage),
    schema: { summary: 'Update a language pack (title, enabled, flag, order, default; the culture stays)', params: ZIdParam, body: ZLanguagePackInput, response: { 200: ZLanguagePack } },
    handler: (req) => updatePack(req.ctx, req.params.id, req.body),
  });

  app.delete(`${base}/:id/language-pack`, {
    config: requirePermission(P.LocalizationManage),
    schema: { summary: 'Delete a language pack and its texts (not zh-CN, en-US or the default)', params: ZIdParam, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await deletePack(req.ctx, req.params.id);
      return reply.status(204).send(null);
    },
  });

  app.post(`${base}/text`, {
    config: requirePermission(P.LocalizationManage),
    schema: { summary: 'Add a text (culture, namespace, key, value) that overrides or extends the built-in texts', body: ZLocalizationTextInput, response: { 200: ZLocalizationText } },
    handler: (req) => createText(req.ctx, req.body),
  });

  app.put(`${base}/:id/text`, {
    config: requirePermission(P.LocalizationManage),
    schema: { summary: 'Update a text', params: ZIdParam, body: ZLocalizationTextInput, response: { 200: ZLocalizationText } },
    handler: (req) => updateText(req.ctx, req.params.id, req.body),
  });

  app.delete(`${base}/:id/text`, {
    config: requirePermission(P.LocalizationManage),
    schema: { summary: 'Delete a text (the built-in text, if any, shows again)', params: ZIdParam, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await deleteText(req.ctx, req.params.id);
      return reply.status(204).send(null);
    },
  });

  app.get(`${base}/paged-texts`, {
    config: requirePermission(P.Localization),
    schema: {
      summary: 'Texts, paged: Culture, ResourceName, Key, Value, Filter; ReferenceCulture pairs each key with its reference text, OnlyMissing keeps untranslated keys',
      querystring: ZPagedTextsQuery,
      response: { 200: ZPagedTextList },
    },
    handler: (req) => pagedTexts(app.db, req.query),
  });

  // Public: the sign-in page needs the texts of the chosen language. Answered from the per-culture
  // cache; the ETag is the version, so an unchanged dictionary costs a 304.
  app.get(`${base}/language-dictionary`, {
    config: publicRoute(),
    schema: {
      summary: 'The texts of a culture, nested by namespace: built-in texts overlaid with administrators\' texts',
      description: 'Answers `{ "<namespace>": { "<key>": "<text>" | { …nested } } }`.',
      querystring: ZDictionaryQuery,
    },
    handler: async (req, reply) => {
      const entry = await languageDictionary(req.ctx, req.query.culture);
      const etag = `"l10n-${entry.version}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (req.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.type('application/json; charset=utf-8').send(entry.body);
    },
  });

  app.get(`${base}/version`, {
    config: publicRoute(),
    schema: { summary: 'A number that grows with every change to packs or texts (browsers poll it)', response: { 200: ZLocalizationVersion } },
    handler: async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return { version: await currentVersion(app.db) };
    },
  });

  app.get(`${base}/export`, {
    config: requirePermission(P.Localization),
    schema: { summary: 'Download a language pack as JSON or Excel', querystring: ZExportQuery },
    handler: async (req, reply) => {
      reply.header('cache-control', 'no-store');
      if (req.query.format === 'xlsx') {
        const file = await exportPackXlsx(req.ctx, req.query.culture);
        return reply.header('content-type', XLSX_TYPE).header('content-disposition', attachment(file.fileName)).send(file.content);
      }
      const file = await exportPackJson(req.ctx, req.query.culture);
      return reply
        .header('content-disposition', attachment(`language-pack-${file.culture}.json`))
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(file, null, 2));
    },
  });

  app.post(`${base}/import`, {
    config: requirePermission(P.LocalizationManage),
    bodyLimit: 12 * 1024 * 1024,
    schema: {
      summary: 'Import texts into a pack from a JSON file (content: the parsed file or its text); any bad entry → 400 and nothing imported',
      body: ZImportPackInput,
      response: { 200: ZImportPackResult },
    },
    handler: (req) => importPackJson(req.ctx, req.body),
  });

  app.post(`${base}/import-xlsx`, {
    config: requirePermission(P.LocalizationManage),
    schema: {
      operationId: 'importLocalizationWorkbook',
      summary: 'Import texts into the pack of `culture` from an Excel file laid out like the export',
      description: workbookUploadDescription(IMPORT_MAX_TEXTS, 'Any bad row → 400 naming it and nothing imported'),
      querystring: ZImportPackXlsxQuery,
      response: { 200: ZImportPackResult },
    },
    handler: (req) => importPackXlsx(req.ctx, req.query.culture, workbookBytes(req.ctx, req.body)),
  });

  // spec §7 `POST /api/system/i18n/list`; public like the pack list.
  app.post('/system/i18n/list', {
    config: publicRoute(),
    schema: { operationId: 'listEnabledLanguagePacks', summary: 'The enabled language packs and the default culture', response: { 200: ZI18nList } },
    handler: () => i18nList(app.db),
  });
}
