import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParam } from '@tessera/core/contracts/common';
import { P } from '@tessera/core/contracts/permissions';
import {
  ZWorkflowAssigneesInput,
  ZWorkflowInstanceDetail,
  ZWorkflowInterventionInput,
  ZWorkflowJumpInput,
  ZWorkflowReassignInput,
} from '@tessera/core/contracts/workflow-runtime';
import { requirePermission } from '../../platform/route-access.ts';
import { jumpWorkflowInstance, reassignWorkflowTask, resendWorkflowReminders, setWorkflowNodeAssignees } from './workflow-interventions.service.ts';

/**
 * Flow management's interventions on a running instance (`/api/app/workflow-instance/{id}/…`,
 * P.FlowInstances, a required reason; contracts/workflow-runtime.ts). Terminate is with the
 * instance routes.
 */
export async function workflowInterventionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = '/app/workflow-instance/:id';
  const config = requirePermission(P.FlowInstances);

  app.post(`${base}/reassign`, {
    config,
    schema: { summary: 'Flow management: an open approve task moves to another active user (same node visit, order and due time)', params: ZIdParam, body: ZWorkflowReassignInput, response: { 200: ZWorkflowInstanceDetail } },
    handler: (req) => reassignWorkflowTask(req.ctx, req.params.id, req.body),
  });

  app.post(`${base}/jump`, {
    config,
    schema: { summary: 'Flow management: every open task and node visit closes and the flow enters an approval, CC or end node (end approves the instance)', params: ZIdParam, body: ZWorkflowJumpInput, response: { 200: ZWorkflowInstanceDetail } },
    handler: (req) => jumpWorkflowInstance(req.ctx, req.params.id, req.body),
  });

  app.post(`${base}/assignees`, {
    config,
    schema: { summary: 'Flow management: add assignees to an active approval node, or replace its open ones; the node is decided again', params: ZIdParam, body: ZWorkflowAssigneesInput, response: { 200: ZWorkflowInstanceDetail } },
    handler: (req) => setWorkflowNodeAssignees(req.ctx, req.params.id, req.body),
  });

  app.post(`${base}/remind`, {
    config,
    schema: { summary: 'Flow management: notify every pending assignee again (no 10-minute limit)', params: ZIdParam, body: ZWorkflowInterventionInput, response: { 200: ZWorkflowInstanceDetail } },
    handler: (req) => resendWorkflowReminders(req.ctx, req.params.id, req.body),
  });
}
