import type { WfGraph } from './graph-model.ts';

/**
 * Problems of a graph as the designer edits it (issue 13: unreachable nodes, branches without a
 * default, approval nodes without assignees …), with the contract's problem codes. Each names the
 * node or edge it is about so the canvas marks it and the problems list selects it. The server's
 * check (`POST /check`, the core validator with the page's controls) adds the page rules.
 */
export interface GraphProblem {
  code: string;
  nodeId: string | null;
  edgeId: string | null;
  params?: Record<string, string | number>;
  message?: string;
}

export function checkGraph(graph: WfGraph): GraphProblem[] {
  const problems: GraphProblem[] = [];
  const add = (code: string, nodeId: string | null = null, edgeId: string | null = null) => problems.push({ code, nodeId, edgeId });
  const starts = graph.nodes.filter((n) => n.type === 'start');
  if (starts.length === 0) add('noStart');
  for (const extra of starts.slice(1)) add('multipleStarts', extra.id);
  if (!graph.nodes.some((n) => n.type === 'end')) add('noEnd');

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
    if (starts.length > 0 && !reachable.has(n.id)) add('unreachable', n.id);
    if (n.type !== 'end' && !finishing.has(n.id)) add('noPathToEnd', n.id);
    if ((n.type === 'approval' || n.type === 'cc' || n.type === 'automatic' || n.type === 'start' || n.type === 'join') && outgoing.length > 1) add('multipleOutgoing', n.id);
    if (n.type === 'parallel' && outgoing.length < 2) add('parallelTooFewBranches', n.id);
    if (n.type === 'exclusive') {
      if (outgoing.length < 2) add('exclusiveTooFewBranches', n.id);
      const defaults = outgoing.filter((e) => e.isDefault);
      if (defaults.length === 0) add('exclusiveNoDefault', n.id);
      if (defaults.length > 1) add('exclusiveMultipleDefaults', n.id);
      for (const e of outgoing) if (!e.isDefault && !e.condition?.trim()) add('conditionMissing', n.id, e.id);
    }
    if (n.type === 'approval' && n.config.assignees.length === 0) add('approvalNoAssignees', n.id);
    if (n.type === 'cc' && n.config.recipients.length === 0) add('ccNoRecipients', n.id);
    if (n.type === 'automatic' && n.config.assignments.length === 0) add('automaticNoAssignments', n.id);
  }
  return problems;
}
