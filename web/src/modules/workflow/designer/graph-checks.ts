import { validateWorkflowGraph, type WorkflowGraphCheckOptions, type WorkflowGraphProblem } from '@tessera/core/workflow/validate-graph';
import type { WfGraph } from './graph-model.ts';

/**
 * Problems of a graph as the designer edits it (issue 13: unreachable nodes, branches without a
 * default, approval nodes without assignees …): the core validator the server runs before a
 * publish, given the bound page's controls. Each names the node or edge it is about so the canvas
 * marks it and the problems list selects it.
 */
export type GraphProblem = WorkflowGraphProblem & { message?: string };

export const checkGraph = (graph: WfGraph, options: WorkflowGraphCheckOptions = {}): GraphProblem[] => validateWorkflowGraph(graph, options);

/** Problems per node / edge id, for the canvas marks. */
export function problemsByElement(problems: GraphProblem[]): Map<string, GraphProblem[]> {
  const map = new Map<string, GraphProblem[]>();
  for (const p of problems) {
    for (const id of [p.nodeId, p.edgeId]) if (id) map.set(id, [...(map.get(id) ?? []), p]);
  }
  return map;
}
