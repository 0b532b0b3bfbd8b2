/**
 * The workflow module's public entry: the only file other modules import from it.
 * Owns the tables `workflow_definitions` and `workflow_definition_versions` (the engine's tables
 * come with the engine). A page bound by a live definition cannot be deleted (pages' usage registry).
 */
import { registerPageUsage } from '../pages/index.ts';
import { workflowsUsingPage } from './workflow.service.ts';

export { workflowDefinitionRoutes } from './workflow.routes.ts';

// A page cannot be deleted while a (not deleted) workflow definition is bound to it.
registerPageUsage(workflowsUsingPage);
