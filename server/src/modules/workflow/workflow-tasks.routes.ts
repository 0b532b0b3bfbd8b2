import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParam } from '@tessera/core/contracts/common';
import { ZSelectionItemList } from '@tessera/core/contracts/identity';
import {
  ZBatchApproveInput,
  ZBatchApproveResult,
  ZWorkflowInstanceActionInput,
  ZWorkflowUserQuery,
  ZWorkflowTask,
  ZWorkflowTaskActionInput,
  ZWorkflowTaskActionResult,
  ZWorkflowTaskList,
  ZWorkflowTaskQuery,
  ZWorkflowTodoCount,
  ZWorkflowTodoFacets,
} from '@tessera/core/contracts/workflow-runtime';
import { signedIn } from '../../platform/route-access.ts';
import { actOnWorkflowTask, urgeWorkflowTask, type TaskActionName } from './workflow-engine.service.ts';
import { batchApproveTasks } from './workflow-batch.service.ts';
import { getMyWorkflowTask, listMyWorkflowTasks, myTodoCount, myTodoFacets, workflowUsers } from './workflow-queries.service.ts';

/** `/api/app/workflow-task` (contracts/workflow-runtime.ts): the caller's task lists and actions. Only the assignee acts (403). */
export async function workflowTaskRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = '/app/workflow-task';

  const lists = { todo: 'The caller\'s pending approval tasks, newest first', done: 'Tasks the caller completed, newest first', cc: 'The caller\'s CC tasks, newest first' } as const;
  const operationIds = { todo: 'listTodoWorkflowTasks', done: 'listDoneWorkflowTasks', cc: 'listCcWorkflowTasks' } as const;
  for (const which of ['todo', 'done', 'cc'] as const) {
    app.get(`${base}/${which}`, {
      config: signedIn(),
      schema: { operationId: operationIds[which], summary: `${lists[which]}; Filter (record title, definition name), pageId, definitionId, initiatorId, from / to (arrival), overdue (to-do)`, querystring: ZWorkflowTaskQuery, response: { 200: ZWorkflowTaskList } },
      handler: (req) => listMyWorkflowTasks(req.ctx, which, req.query),
    });
  }

  app.get(`${base}/todo-count`, {
    config: signedIn(),
    schema: { operationId: 'countTodoWorkflowTasks', summary: 'The caller\'s number of open to-do tasks (badges; the live stream says when to read it again)', response: { 200: ZWorkflowTodoCount } },
    handler: (req) => myTodoCount(req.ctx),
  });

  app.get(`${base}/todo-facets`, {
    config: signedIn(),
    schema: { operationId: 'listTodoWorkflowTaskFacets', summary: 'The flows and initiators of the caller\'s open to-do tasks, each with its number of tasks (the to-do list\'s filter choices)', response: { 200: ZWorkflowTodoFacets } },
    handler: (req) => myTodoFacets(req.ctx),
  });

  app.post(`${base}/batch-approve`, {
    config: signedIn(),
    schema: { operationId: 'batchApproveWorkflowTasks', summary: 'Approve several of the caller\'s pending tasks with one comment; each in its own transaction, a result per task', body: ZBatchApproveInput, response: { 200: ZBatchApproveResult } },
    handler: (req) => batchApproveTasks(req.ctx, req.body),
  });

  app.get(`${base}/users`, {
    config: signedIn(),
    schema: { summary: 'Active users (display names) for the flow\'s pickers: the holder of the pending task taskId, or a user who may submit the record pageId + recordId', querystring: ZWorkflowUserQuery, response: { 200: ZSelectionItemList } },
    handler: (req) => workflowUsers(req.ctx, req.query),
  });

  app.get(`${base}/:id`, {
    config: signedIn(),
    schema: { summary: 'One task of the caller (any status; 404 for another\'s task)', params: ZIdParam, response: { 200: ZWorkflowTask } },
    handler: (req) => getMyWorkflowTask(req.ctx, req.params.id),
  });

  const actions: [string, TaskActionName, string][] = [
    ['approve', 'approve', 'Approve (409 when the task is no longer pending)'],
    ['reject', 'reject', 'Reject: the instance ends as rejected (FlowStatus 3); a comment when the node requires one'],
    ['return', 'return', 'Return to the initiator (the instance ends, FlowStatus 4), the previous approval node, or targetNodeId (returnTo any)'],
    ['transfer', 'transfer', 'Transfer the task to userIds[0]'],
    ['delegate', 'delegate', 'Delegate (委派) to userIds[0]: the task is suspended until they act, then comes back'],
    ['add-signer', 'addSigner', 'Add signers (加签) userIds before the caller (they act first) or after (the node waits for them); position before | after'],
    ['remove-signer', 'removeSigner', 'Remove signers (减签): the open tasks of userIds on the same node are cancelled and the node is decided again'],
    ['cc', 'cc', 'Send a copy (抄送) to userIds'],
    ['reclaim', 'reclaim', 'Take back (拿回) the caller\'s approved task while nobody acted on the nodes it led to'],
    ['cc-read', 'ccRead', 'Mark a CC task read'],
  ];
  for (const [path, action, summary] of actions) {
    app.post(`${base}/:id/${path}`, {
      config: signedIn(),
      schema: { summary, params: ZIdParam, body: ZWorkflowTaskActionInput, response: { 200: ZWorkflowTaskActionResult } },
      handler: (req) => actOnWorkflowTask(req.ctx, req.params.id, action, req.body),
    });
  }

  app.post(`${base}/:id/urge`, {
    config: signedIn(),
    schema: { summary: 'Remind (催办) the assignee of a pending task: the initiator or P.FlowInstances; 409 when urged in the last 10 minutes', params: ZIdParam, body: ZWorkflowInstanceActionInput, response: { 200: ZWorkflowTaskActionResult } },
    handler: (req) => urgeWorkflowTask(req.ctx, req.params.id, req.body),
  });
}
