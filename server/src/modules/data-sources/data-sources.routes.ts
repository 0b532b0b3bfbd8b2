import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParam } from '@tessera/core/contracts/common';
import {
  ZCreateDataSourceInput,
  ZDataSource,
  ZDataSourceColumns,
  ZDataSourceColumnsQuery,
  ZDataSourceList,
  ZDataSourceMethod,
  ZDataSourceMethodInput,
  ZDataSourceMethodList,
  ZDataSourceMethodParams,
  ZDataSourceObjects,
  ZDataSourceQuery,
  ZDataSourceQueryInput,
  ZDataSourceQueryResult,
  ZDataSourceTestResult,
  ZRunDataSourceMethodInput,
  ZDataSourceQueryCatalog,
  ZTestDataSourceInput,
  ZUpdateDataSourceInput,
  ZUpdateDataSourceMethodInput,
} from '@tessera/core/contracts/data-sources';
import { P } from '@tessera/core/contracts/permissions';
import { requirePermission } from '../../platform/route-access.ts';
import './data-sources.permissions.ts';
import {
  createDataSource,
  deleteDataSource,
  getDataSource,
  listDataSourceColumns,
  listDataSourceObjects,
  listDataSources,
  runDataSourceQuery,
  testDataSource,
  testDataSourceSettings,
  updateDataSource,
} from './data-sources.service.ts';
import { createDataSourceMethod, dataSourceQueryCatalog, deleteDataSourceMethod, listDataSourceMethods, runDataSourceMethod, updateDataSourceMethod } from './data-source-methods.service.ts';
import { closeSourceClients } from './source-clients.ts';

export async function dataSourceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = '/app/data-source';
  const access = requirePermission(P.DataSources);
  // The pools to external databases go with the server.
  fastify.addHook('onClose', closeSourceClients);

  app.get(base, {
    config: access,
    schema: { summary: 'Data sources, paged: Filter (name, description, host, database), Kind; Sorting name|kind|host|creationTime|lastModificationTime', querystring: ZDataSourceQuery, response: { 200: ZDataSourceList } },
    handler: (req) => listDataSources(req.ctx, req.query),
  });

  app.get(`${base}/queries`, {
    config: requirePermission(P.PagesUpdate),
    schema: { summary: "Every source's saved queries that return rows, for the page designer (names, parameters, columns; no SQL or settings)", response: { 200: ZDataSourceQueryCatalog } },
    handler: (req) => dataSourceQueryCatalog(req.ctx),
  });

  app.post(`${base}/test`, {
    config: access,
    schema: { summary: 'Try settings not yet saved (a stored password is lent by sourceId when none is given)', body: ZTestDataSourceInput, response: { 200: ZDataSourceTestResult } },
    handler: (req) => testDataSourceSettings(req.ctx, req.body),
  });

  app.get(`${base}/:id`, {
    config: access,
    schema: { summary: 'One data source (never its password)', params: ZIdParam, response: { 200: ZDataSource } },
    handler: (req) => getDataSource(req.ctx, req.params.id),
  });

  app.post(base, {
    config: access,
    schema: { summary: 'Create a data source', body: ZCreateDataSourceInput, response: { 200: ZDataSource } },
    handler: (req) => createDataSource(req.ctx, req.body),
  });

  app.put(`${base}/:id`, {
    config: access,
    schema: { summary: 'Save a data source (409 on a stale stamp; no password keeps the stored one, an empty one removes it)', params: ZIdParam, body: ZUpdateDataSourceInput, response: { 200: ZDataSource } },
    handler: (req) => updateDataSource(req.ctx, req.params.id, req.body),
  });

  app.delete(`${base}/:id`, {
    config: access,
    schema: { summary: 'Delete a data source', params: ZIdParam },
    handler: async (req, reply) => {
      await deleteDataSource(req.ctx, req.params.id);
      return reply.code(204).send();
    },
  });

  app.post(`${base}/:id/test`, {
    config: access,
    schema: { summary: "Connect to a saved source and read its server's version", params: ZIdParam, response: { 200: ZDataSourceTestResult } },
    handler: (req) => testDataSource(req.ctx, req.params.id),
  });

  app.get(`${base}/:id/objects`, {
    config: access,
    schema: { summary: 'Schemas of a source with their tables and views', params: ZIdParam, response: { 200: ZDataSourceObjects } },
    handler: (req) => listDataSourceObjects(req.ctx, req.params.id),
  });

  app.get(`${base}/:id/columns`, {
    config: access,
    schema: { summary: "A table's or view's columns", params: ZIdParam, querystring: ZDataSourceColumnsQuery, response: { 200: ZDataSourceColumns } },
    handler: (req) => listDataSourceColumns(req.ctx, req.params.id, req.query.schema, req.query.table),
  });

  app.post(`${base}/:id/query`, {
    config: access,
    schema: { summary: 'Run one statement with named parameters (:name, always bound); reads only on a read-only source; at most the row cap', params: ZIdParam, body: ZDataSourceQueryInput, response: { 200: ZDataSourceQueryResult } },
    handler: (req) => runDataSourceQuery(req.ctx, req.params.id, req.body),
  });

  app.get(`${base}/:id/method`, {
    config: access,
    schema: { summary: "A source's saved queries (methods), by name", params: ZIdParam, response: { 200: ZDataSourceMethodList } },
    handler: (req) => listDataSourceMethods(req.ctx, req.params.id),
  });

  app.post(`${base}/:id/method`, {
    config: access,
    schema: { summary: "Save a query: its :names must be the declared parameters; the result's columns are read from the source", params: ZIdParam, body: ZDataSourceMethodInput, response: { 200: ZDataSourceMethod } },
    handler: (req) => createDataSourceMethod(req.ctx, req.params.id, req.body),
  });

  app.put(`${base}/:id/method/:methodId`, {
    config: access,
    schema: { summary: 'Save a saved query again (409 on a stale stamp)', params: ZDataSourceMethodParams, body: ZUpdateDataSourceMethodInput, response: { 200: ZDataSourceMethod } },
    handler: (req) => updateDataSourceMethod(req.ctx, req.params.id, req.params.methodId, req.body),
  });

  app.delete(`${base}/:id/method/:methodId`, {
    config: access,
    schema: { summary: 'Delete a saved query', params: ZDataSourceMethodParams },
    handler: async (req, reply) => {
      await deleteDataSourceMethod(req.ctx, req.params.id, req.params.methodId);
      return reply.code(204).send();
    },
  });

  app.post(`${base}/:id/method/:methodId/run`, {
    config: access,
    schema: { summary: 'Run a saved query: given values typed, defaults for the rest; answered from its cache for cacheSeconds', params: ZDataSourceMethodParams, body: ZRunDataSourceMethodInput, response: { 200: ZDataSourceQueryResult } },
    handler: (req) => runDataSourceMethod(req.ctx, req.params.id, req.params.methodId, req.body),
  });
}
