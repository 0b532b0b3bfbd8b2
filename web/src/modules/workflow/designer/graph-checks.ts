import type { WfGraph } from './graph-model.ts';

/**
 * Problems of a graph as the designer edits it (issue 13: unreachable nodes, branches without a
 * default, approval nodes without assignees …). Each names the node or edge it is about so the
 * canvas marks it and the problems list selects it.
 */
export const PROBLEM_CODES = [
  'noStart',
  'manyStarts',
  'noEnd',
  'unreachable',
  'deadEnd',
  'cannotFinish',
  'fewBranches',
  'noDefaultBranch',
  'manyDefaultBranches',
  'branchWithoutCondition',
  'noAssignees',
  'noRecipients',
  'noAssignments',
  'emptyName',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];
export interface GraphProblem {
  code: ProblemCode;
  nodeId?: string;
  edgeId?: string;
}

export function checkGraph(graph: WfGraph): GraphProblem[] {
  const problems: GraphProblem[] = [];
  const starts = graph.nodes.filter((n) => n.type === 'start');
  if (starts.length === 0) problems.push({ code: 'noStart' });
  for (const extra of starts.slice(1)) problems.push({ code: 'manyStarts', nodeId: extra.id });
  if (!graph.nodes.some((n) => n.type === 'end')) problems.push({ code: 'noEnd' });

  const out = new Map<string, string[]>();
  const into = new Map<string, string[]>();
  for (const e of graph.edges) {
    out.set(e.source, [...(out.get(e.source) ?? []), e.target]);
    into.set(e.target, [...(into.get(e.target) ?? []), e.source]);
  }
  const reach = (from: string[], next: Map<string, string[]>) => {
    const seen = new Set<string>();
    const stack = [...from];
    while (stack.length) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...(next.get(id) ?? []));
    }
    return seen;
  };
  const reachable = reach(starts.slice(0, 1).map((s) => s.id), out);
  const finishing = reach(graph.nodes.filter((n) => n.type === 'end').map((n) => n.id), into);

  for (const n of graph.nodes) {
    const outgoing = graph.edges.filter((e) => e.source === n.id);
    if (!n.name.trim()) problems.push({ code: 'emptyName', nodeId: n.id });
    if (starts.length > 0 && !reachable.has(n.id)) problems.push({ code: 'unreachable', nodeId: n.id });
    if (n.type !== 'end' && outgoing.length === 0) problems.push({ code: 'deadEnd', nodeId: n.id });
    else if (n.type !== 'end' && reachable.has(n.id) && !finishing.has(n.id)) problems.push({ code: 'cannotFinish', nodeId: n.id });
    if ((n.type === 'exclusive' || n.type === 'parallel') && outgoing.length > 0 && outgoing.length < 2) problems.push({ code: 'fewBranches', nodeId: n.id });
    if (n.type === 'exclusive' && outgoing.length >= 2) {
      const defaults = outgoing.filter((e) => e.isDefault);
      if (defaults.length === 0) problems.push({ code: 'noDefaultBranch', nodeId: n.id });
      if (defaults.length > 1) problems.push({ code: 'manyDefaultBranches', nodeId: n.id });
      for (const e of outgoing) if (!e.isDefault && !e.condition?.trim()) problems.push({ code: 'branchWithoutCondition', edgeId: e.id, nodeId: n.id });
    }
    if (n.type === 'approval' && !(n.config.assignees ?? []).length) problems.push({ code: 'noAssignees', nodeId: n.id });
    if (n.type === 'cc' && !(n.config.recipients ?? []).length) problems.push({ code: 'noRecipients', nodeId: n.id });
    if (n.type === 'automatic' && !(n.config.assignments ?? []).some((a) => a.control && a.formula.trim())) problems.push({ code: 'noAssignments', nodeId: n.id });
  }
  return problems;
}
