import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParam } from '@tessera/core/contracts/common';
import { P } from '@tessera/core/contracts/permissions';
import {
  ZBindablePageList,
  ZBindablePageQuery,
  ZCheckWorkflowInput,
  ZCopyWorkflowDefinitionInput,
  ZCreateWorkflowDefinitionInput,
  ZImportBpmnInput,
  ZImportWorkflowDefinitionInput,
  ZImportWorkflowDefinitionResult,
  ZPublishWorkflowInput,
  ZPublishWorkflowResult,
  ZUpdateWorkflowDefinitionInput,
  ZWorkflowCheckResult,
  ZWorkflowDefinitionDetail,
  ZWorkflowDefinitionList,
  ZWorkflowDefinitionQuery,
  ZWorkflowExportDocument,
  ZWorkflowExportQuery,
  ZWorkflowPageDesign,
  ZWorkflowVersionDetail,
  ZWorkflowVersionList,
  ZWorkflowVersionParams,
} from '@tessera/core/contracts/workflow';
import { attachmentDisposition, safeFileName } from '../../platform/excel.ts';
import { getPublishedPageDesign, listBindablePages } from '../pages/index.ts';
import { requirePermission } from '../../platform/route-access.ts';
import './workflow.permissions.ts';
import { checkWorkflowGraph, getWorkflowVersion, listWorkflowVersions, publishWorkflowDefinition } from './workflow-publish.service.ts';
import { exportWorkflowBpmn, exportWorkflowDefinition, importWorkflowBpmn, importWorkflowDefinition } from './workflow-transfer.service.ts';
import {
  copyWorkflowDefinition,
  createWorkflowDefinition,
  deleteWorkflowDefinition,
  getWorkflowDefinition,
  listWorkflowDefinitions,
  setWorkflowDefinitionEnabled,
  updateWorkflowDefinition,
} from './workflow.service.ts';

/** File names of downloads: the definition's name without characters file systems refuse. */
const fileName = (name: string, extension: string) => `${safeFileName(name) || 'workflow'}.${extension}`;

export async function workflowDefinitionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = '/app/workflow-definition';
  const access = requirePermission(P.Workflows);

  app.get(base, {
    config: access,
    schema: {
      summary: 'Workflow definitions, paged: Filter (name, description), Enabled, Status, PageId; Sorting name|status|enabled|publishedVersion|creationTime|lastModificationTime',
      querystring: ZWorkflowDefinitionQuery,
      response: { 200: ZWorkflowDefinitionList },
    },
    handler: (req) => listWorkflowDefinitions(req.ctx, req.query),
  });

  app.post(`${base}/check`, {
    config: access,
    schema: { summary: 'Check a graph against its page without saving (the problems publishing would refuse)', body: ZCheckWorkflowInput, response: { 200: ZWorkflowCheckResult } },
    handler: (req) => checkWorkflowGraph(req.ctx, req.body),
  });

  app.get(`${base}/bindable-pages`, {
    config: access,
    schema: { summary: 'Published pages a definition may bind to, by code: Filter (code, name)', querystring: ZBindablePageQuery, response: { 200: ZBindablePageList } },
    handler: (req) => listBindablePages(req.ctx.db, req.query),
  });

  app.get(`${base}/page-design/:id`, {
    config: access,
    schema: { summary: 'A page\'s latest published design (views and controls for field permissions, pickers and formulas); 404 before its first publish', params: ZIdParam, response: { 200: ZWorkflowPageDesign } },
    handler: (req) => getPublishedPageDesign(req.ctx.db, req.params.id),
  });

  app.post(`${base}/import`, {
    config: access,
    schema: {
      summary: 'Import an exported JSON file as a new draft (bound to pageId, else the file\'s page by id, else by code); answers the problems publishing would refuse',
      body: ZImportWorkflowDefinitionInput,
      response: { 200: ZImportWorkflowDefinitionResult },
    },
    handler: (req) => importWorkflowDefinition(req.ctx, req.body),
  });

  app.post(`${base}/import-bpmn`, {
    config: access,
    schema: { operationId: 'importWorkflowDefinitionBpmn', summary: 'Import BPMN 2.0 XML as a new draft (Tessera\'s own export round-trips losslessly)', body: ZImportBpmnInput, response: { 200: ZImportWorkflowDefinitionResult } },
    handler: (req) => importWorkflowBpmn(req.ctx, req.body),
  });

  app.get(`${base}/:id`, {
    config: access,
    schema: { summary: 'One definition with its draft graph', params: ZIdParam, response: { 200: ZWorkflowDefinitionDetail } },
    handler: (req) => getWorkflowDefinition(req.ctx, req.params.id),
  });

  app.post(base, {
    config: access,
    schema: { summary: 'Create a definition bound to a page (disabled, never published)', body: ZCreateWorkflowDefinitionInput, response: { 200: ZWorkflowDefinitionDetail } },
    handler: (req) => createWorkflowDefinition(req.ctx, req.body),
  });

  app.put(`${base}/:id`, {
    config: access,
    schema: { summary: 'Save the draft (409 on a stale concurrency stamp)', params: ZIdParam, body: ZUpdateWorkflowDefinitionInput, response: { 200: ZWorkflowDefinitionDetail } },
    handler: (req) => updateWorkflowDefinition(req.ctx, req.params.id, req.body),
  });

  app.post(`${base}/:id/copy`, {
    config: access,
    schema: { summary: 'Copy a definition\'s draft as a new, disabled, never-published definition', params: ZIdParam, body: ZCopyWorkflowDefinitionInput, response: { 200: ZWorkflowDefinitionDetail } },
    handler: (req) => copyWorkflowDefinition(req.ctx, req.params.id, req.body),
  });

  app.delete(`${base}/:id`, {
    config: access,
    schema: { summary: 'Delete a definition (kept as deleted for the audit trail; refused while instances run)', params: ZIdParam, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await deleteWorkflowDefinition(req.ctx, req.params.id);
      return reply.status(204).send(null);
    },
  });

  app.post(`${base}/:id/enable`, {
    config: access,
    schema: { summary: 'Enable a published definition (new instances of its page may start on it)', params: ZIdParam, response: { 200: ZWorkflowDefinitionDetail } },
    handler: (req) => setWorkflowDefinitionEnabled(req.ctx, req.params.id, true),
  });

  app.post(`${base}/:id/disable`, {
    config: access,
    schema: { summary: 'Disable a definition (running instances go on)', params: ZIdParam, response: { 200: ZWorkflowDefinitionDetail } },
    handler: (req) => setWorkflowDefinitionEnabled(req.ctx, req.params.id, false),
  });

  app.post(`${base}/:id/publish`, {
    config: access,
    schema: {
      summary: 'Publish the draft as version N+1 after checking it against the bound page (400 Workflow.GraphProblems listing the problems)',
      params: ZIdParam,
      body: ZPublishWorkflowInput,
      response: { 200: ZPublishWorkflowResult },
    },
    handler: (req) => publishWorkflowDefinition(req.ctx, req.params.id, req.body),
  });

  app.get(`${base}/:id/versions`, {
    config: access,
    schema: { summary: 'Published versions, newest first', params: ZIdParam, response: { 200: ZWorkflowVersionList } },
    handler: (req) => listWorkflowVersions(req.ctx, req.params.id),
  });

  app.get(`${base}/:id/versions/:version`, {
    config: access,
    schema: { summary: 'One published version with its graph', params: ZWorkflowVersionParams, response: { 200: ZWorkflowVersionDetail } },
    handler: (req) => getWorkflowVersion(req.ctx, req.params.id, req.params.version),
  });

  app.get(`${base}/:id/export`, {
    config: access,
    schema: { summary: 'Export as a JSON file (the draft, or the latest published version)', params: ZIdParam, querystring: ZWorkflowExportQuery, response: { 200: ZWorkflowExportDocument } },
    handler: async (req, reply) => {
      const doc = await exportWorkflowDefinition(req.ctx, req.params.id, req.query.source);
      reply.header('content-disposition', attachmentDisposition(fileName(doc.definition.name, 'workflow.json')));
      return doc;
    },
  });

  app.get(`${base}/:id/bpmn`, {
    config: access,
    schema: {
      summary: 'Export as BPMN 2.0 XML (the draft, or the latest published version); Tessera\'s configuration rides in tessera:config extension elements',
      params: ZIdParam,
      querystring: ZWorkflowExportQuery,
      produces: ['application/xml'],
      response: { 200: z.string() },
    },
    handler: async (req, reply) => {
      const { xml, name } = await exportWorkflowBpmn(req.ctx, req.params.id, req.query.source);
      reply.header('content-disposition', attachmentDisposition(fileName(name, 'bpmn')));
      reply.type('application/xml; charset=utf-8');
      return xml;
    },
  });
}
