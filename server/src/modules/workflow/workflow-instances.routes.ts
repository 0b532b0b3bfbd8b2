import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParam } from '@tessera/core/contracts/common';
import { P } from '@tessera/core/contracts/permissions';
import {
  ZForRecordQuery,
  ZStartWorkflowInput,
  ZWorkflowFlowChoices,
  ZWorkflowForRecord,
  ZWorkflowInstanceActionInput,
  ZWorkflowInstanceDetail,
  ZWorkflowInstanceList,
  ZWorkflowInstanceQuery,
  ZWorkflowTerminateInput,
} from '@tessera/core/contracts/workflow-runtime';
import { requirePermission, signedIn } from '../../platform/route-access.ts';
import { startWorkflow, terminateWorkflowInstance, urgeWorkflowInstance, withdrawWorkflowInstance } from './workflow-engine.service.ts';
import { workflowInterventionRoutes } from './workflow-interventions.routes.ts';
import { getWorkflowForRecord, getWorkflowInstance, listWorkflowInstances, workflowFlowChoices } from './workflow-queries.service.ts';

/** `/api/app/workflow-instance` (contracts/workflow-runtime.ts): start, read, withdraw, terminate. */
export async function workflowInstanceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = '/app/workflow-instance';

  app.post(base, {
    config: signedIn(),
    schema: { summary: 'Submit a record for approval (the caller may edit it); 400 when no definition applies, chosen approvers are missing or a node has nobody under `refuse`', body: ZStartWorkflowInput, response: { 200: ZWorkflowInstanceDetail } },
    handler: (req) => startWorkflow(req.ctx, req.body),
  });

  app.get(`${base}/for-record`, {
    config: signedIn(),
    schema: { summary: 'The record page\'s workflow state: FlowStatus, the latest instance, startable definitions, the caller\'s pending task, whether they may withdraw', querystring: ZForRecordQuery, response: { 200: ZWorkflowForRecord } },
    handler: (req) => getWorkflowForRecord(req.ctx, req.query),
  });

  app.get(base, {
    config: signedIn(),
    schema: { summary: 'Instances, newest first: scope mine (started by the caller) or all (P.FlowInstances); Filter (record title, definition name), status, pageId', querystring: ZWorkflowInstanceQuery, response: { 200: ZWorkflowInstanceList } },
    handler: (req) => listWorkflowInstances(req.ctx, req.query),
  });

  app.get(`${base}/flows`, {
    config: requirePermission(P.FlowInstances),
    schema: { summary: 'The definitions that have instances, by name: flow management\'s flow filter (a flow administrator need not hold Tessera.Workflows)', response: { 200: ZWorkflowFlowChoices } },
    handler: () => workflowFlowChoices(fastify.db),
  });

  app.get(`${base}/:id`, {
    config: signedIn(),
    schema: { summary: 'One instance with its graph, progress, history and tasks (initiator, assignees, P.FlowInstances)', params: ZIdParam, response: { 200: ZWorkflowInstanceDetail } },
    handler: (req) => getWorkflowInstance(req.ctx, req.params.id),
  });

  app.post(`${base}/:id/withdraw`, {
    config: signedIn(),
    schema: { summary: 'The initiator withdraws, while nobody acted on the current nodes (FlowStatus 4)', params: ZIdParam, body: ZWorkflowInstanceActionInput, response: { 200: ZWorkflowInstanceDetail } },
    handler: (req) => withdrawWorkflowInstance(req.ctx, req.params.id, req.body),
  });

  app.post(`${base}/:id/urge`, {
    config: signedIn(),
    schema: { summary: 'Remind (催办) every pending assignee: the initiator or P.FlowInstances; tasks urged in the last 10 minutes are skipped (409 when all were)', params: ZIdParam, body: ZWorkflowInstanceActionInput, response: { 200: ZWorkflowInstanceDetail } },
    handler: (req) => urgeWorkflowInstance(req.ctx, req.params.id, req.body),
  });

  app.post(`${base}/:id/terminate`, {
    config: requirePermission(P.FlowInstances),
    schema: { summary: 'Flow management: terminate a running instance (the record becomes a draft again); a reason (or the older comment) is required', params: ZIdParam, body: ZWorkflowTerminateInput, response: { 200: ZWorkflowInstanceDetail } },
    handler: (req) => terminateWorkflowInstance(req.ctx, req.params.id, req.body),
  });

  await workflowInterventionRoutes(fastify);
}
