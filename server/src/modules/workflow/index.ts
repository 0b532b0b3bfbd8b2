/**
 * The workflow module's public entry: the only file other modules import from it.
 * Owns the tables `workflow_definitions`, `workflow_definition_versions` (definitions) and the
 * engine's `workflow_instances`, `workflow_node_states`, `workflow_tasks`, `workflow_actions`,
 * `workflow_outbox`. A page bound by a live definition cannot be deleted (pages' usage registry).
 * Registers the job handlers of approval timeouts (`workflow.remind`, `workflow.timeout`) and the
 * approval nodes' field permissions with business-data (`registerApproverGrants`).
 */
import { registerJobHandler } from '../../platform/jobs.ts';
import { registerApproverGrants } from '../business-data/index.ts';
import { registerPageUsage } from '../pages/index.ts';
import { remindWorkflowTask, timeoutWorkflowTask } from './workflow-engine.service.ts';
import { approverGrant } from './workflow-field-permissions.ts';
import { REMIND_QUEUE, TIMEOUT_QUEUE } from './workflow-timers.ts';
import { workflowsUsingPage } from './workflow.service.ts';

export { workflowDefinitionRoutes } from './workflow.routes.ts';
export { workflowInstanceRoutes } from './workflow-instances.routes.ts';
export { workflowTaskRoutes } from './workflow-tasks.routes.ts';

// A page cannot be deleted while a (not deleted) workflow definition is bound to it.
registerPageUsage(workflowsUsingPage);

// A record in approval: the holders of its pending approval tasks change their node's editable fields.
registerApproverGrants(approverGrant);

registerJobHandler(REMIND_QUEUE, (ctx, job) => remindWorkflowTask(ctx, String(job.payload.taskId), Number(job.payload.count ?? 1)));
registerJobHandler(TIMEOUT_QUEUE, (ctx, job) => timeoutWorkflowTask(ctx, String(job.payload.taskId)));
