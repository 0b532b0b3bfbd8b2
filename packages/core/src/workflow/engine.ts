import type { TApprovalActions, TApprovalMode, TWorkflowEdge, TWorkflowGraph, TWorkflowNode } from '../contracts/workflow.ts';
import type { TWorkflowTaskAction, TWorkflowTaskOrigin } from '../contracts/workflow-runtime.ts';
import { compileFormula, isFormulaError, type FormulaContext, type FormulaValue } from '../formula/index.ts';

// The workflow interpreter's pure part (issue 13): where the flow goes when a node completes, and
// when an approval node is complete. No I/O: the server's engine service reads the instance's rows,
// asks these functions, and writes what they answer in one transaction.
//
// Walking from a completed node, the flow passes through nodes that need nobody and stops at those
// that do:
//   exclusive  the first outgoing edge (ascending priority) whose condition is true, else the default;
//   parallel   every outgoing edge;
//   join       waits until every incoming edge arrived in this visit, then goes on (once);
//   automatic  computes its field assignments (later conditions see the new values) and goes on;
//   cc         its recipients are told, the flow goes on;
//   approval   stops: tasks open there;
//   end        the instance is approved.

export interface WalkInput {
  graph: TWorkflowGraph;
  /** The node that completed (the start node when an instance starts). */
  from: string;
  /** The record the conditions and assignments read: master values and child views (`{lines.amount}` lists). */
  record: FormulaContext;
  /** Joins waiting: join node id → incoming edge ids arrived in the current visit. */
  joinArrivals: Readonly<Record<string, readonly string[]>>;
}

export interface WalkStep {
  nodeId: string;
  type: TWorkflowNode['type'];
  /** The edge the flow came along. */
  viaEdgeId: string;
}

export interface WalkResult {
  /** Approval nodes the flow reached: tasks open there. */
  approvals: WalkStep[];
  /** CC nodes passed: their recipients get CC tasks. */
  ccs: WalkStep[];
  /** Automatic nodes passed with the values they assign (master control code → value). */
  assignments: { nodeId: string; values: Record<string, unknown> }[];
  /** Every node the flow passed through (exclusive, parallel, completed join, automatic, cc, end). */
  passed: WalkStep[];
  /** Joins waiting after the walk (the input's, updated; a completed join is removed). */
  joinArrivals: Record<string, string[]>;
  /** The flow reached an end node. */
  ended: boolean;
  /** Problems met (a condition that is an error value, an exclusive without a usable branch). */
  problems: { nodeId: string; message: string }[];
}

export class WorkflowGraphIndex {
  readonly nodes = new Map<string, TWorkflowNode>();
  readonly outgoing = new Map<string, TWorkflowEdge[]>();
  readonly incoming = new Map<string, TWorkflowEdge[]>();
  constructor(readonly graph: TWorkflowGraph) {
    for (const n of graph.nodes) {
      this.nodes.set(n.id, n);
      this.outgoing.set(n.id, []);
      this.incoming.set(n.id, []);
    }
    for (const e of graph.edges) {
      this.outgoing.get(e.source)?.push(e);
      this.incoming.get(e.target)?.push(e);
    }
  }
  node(id: string): TWorkflowNode {
    const n = this.nodes.get(id);
    if (!n) throw new Error(`Workflow node ${id} is not in the graph`);
    return n;
  }
  start(): TWorkflowNode {
    const s = this.graph.nodes.find((n) => n.type === 'start');
    if (!s) throw new Error('Workflow graph without a start node');
    return s;
  }
  /**
   * Approval nodes before `nodeId` on some path from the start (return targets), nearest first by
   * breadth-first distance backwards.
   */
  earlierApprovals(nodeId: string): TWorkflowNode[] {
    const seen = new Set<string>([nodeId]);
    const found: TWorkflowNode[] = [];
    let frontier = [nodeId];
    while (frontier.length) {
      const next: string[] = [];
      for (const id of frontier)
        for (const e of this.incoming.get(id) ?? []) {
          if (seen.has(e.source)) continue;
          seen.add(e.source);
          next.push(e.source);
          const n = this.nodes.get(e.source);
          if (n?.type === 'approval') found.push(n);
        }
      frontier = next;
    }
    return found;
  }
}

/** A condition holds when it evaluates to true (or a non-zero number, or non-empty text other than "false"). */
export function isTruthy(value: FormulaValue): boolean {
  if (isFormulaError(value)) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return value !== '' && value.toLowerCase() !== 'false';
  return value != null && !(Array.isArray(value) && value.length === 0);
}

export function evaluateCondition(formula: string, record: FormulaContext): { value: boolean; error: string | null } {
  const result = compileFormula(formula).evaluate(record);
  if (isFormulaError(result)) return { value: false, error: result.message };
  return { value: isTruthy(result), error: null };
}

/** The outgoing edge an exclusive node takes (null: none holds and there is no default). */
export function chooseExclusiveEdge(edges: readonly TWorkflowEdge[], record: FormulaContext, problems?: string[]): TWorkflowEdge | null {
  const ordered = edges
    .map((e, i) => ({ e, i }))
    .filter(({ e }) => !e.isDefault)
    .sort((a, b) => (a.e.priority ?? 0) - (b.e.priority ?? 0) || a.i - b.i);
  for (const { e } of ordered) {
    if (!e.condition?.trim()) continue;
    const { value, error } = evaluateCondition(e.condition, record);
    if (error) problems?.push(`${e.id}: ${error}`);
    if (value) return e;
  }
  return edges.find((e) => e.isDefault) ?? null;
}

export function walkFrom(input: WalkInput): WalkResult {
  const index = new WorkflowGraphIndex(input.graph);
  const joins: Record<string, string[]> = Object.fromEntries(Object.entries(input.joinArrivals).map(([k, v]) => [k, [...v]]));
  const result: WalkResult = { approvals: [], ccs: [], assignments: [], passed: [], joinArrivals: joins, ended: false, problems: [] };
  // Automatic nodes change the record the later conditions read.
  const master: Record<string, unknown> = { ...(input.record.master ?? {}) };
  const record: FormulaContext = { ...input.record, master };
  const queue: TWorkflowEdge[] = [...(index.outgoing.get(input.from) ?? [])];
  let guard = 0;
  while (queue.length) {
    if (++guard > 10_000) throw new Error('Workflow walk does not terminate');
    const edge = queue.shift()!;
    const node = index.node(edge.target);
    const step: WalkStep = { nodeId: node.id, type: node.type, viaEdgeId: edge.id };
    const out = index.outgoing.get(node.id) ?? [];
    switch (node.type) {
      case 'approval':
        result.approvals.push(step);
        break;
      case 'end':
        result.passed.push(step);
        result.ended = true;
        break;
      case 'cc':
        result.ccs.push(step);
        result.passed.push(step);
        queue.push(...out);
        break;
      case 'parallel':
        result.passed.push(step);
        queue.push(...out);
        break;
      case 'exclusive': {
        const problems: string[] = [];
        const chosen = chooseExclusiveEdge(out, record, problems);
        for (const p of problems) result.problems.push({ nodeId: node.id, message: p });
        result.passed.push(step);
        if (chosen) queue.push(chosen);
        else result.problems.push({ nodeId: node.id, message: 'no branch applies' });
        break;
      }
      case 'join': {
        const arrived = joins[node.id] ?? (joins[node.id] = []);
        if (!arrived.includes(edge.id)) arrived.push(edge.id);
        const expected = (index.incoming.get(node.id) ?? []).map((e) => e.id);
        if (expected.every((id) => arrived.includes(id))) {
          delete joins[node.id];
          result.passed.push(step);
          queue.push(...out);
        }
        break;
      }
      case 'automatic': {
        const values: Record<string, unknown> = {};
        for (const a of node.config.assignments) {
          const v = compileFormula(a.formula).evaluate(record);
          if (isFormulaError(v)) {
            result.problems.push({ nodeId: node.id, message: `${a.controlCode}: ${v.message}` });
            continue;
          }
          values[a.controlCode] = v;
          master[a.controlCode] = v;
        }
        result.assignments.push({ nodeId: node.id, values });
        result.passed.push(step);
        queue.push(...out);
        break;
      }
      case 'start':
        // validate-graph refuses edges into the start node; nothing to do.
        break;
    }
  }
  return result;
}

// ---------------------------------------------------------------- approval nodes

export type ApprovalTaskState = 'pending' | 'waiting' | 'approved' | 'rejected' | 'closed';

export interface ApprovalDecision {
  /** `open`: the node waits for more actions. */
  outcome: 'approved' | 'rejected' | 'open';
  /** sequential: the index of the task to open next (`waiting` → `pending`). */
  openNext: number | null;
}

/**
 * Whether an approval node is done, from its tasks' states in assignee order (transferred tasks count
 * as their successor; `closed` tasks do not count).
 *   or          the first approval completes the node; a rejection rejects it
 *   all         every assignee approves; a rejection rejects it
 *   vote        approvals ≥ percent of the assignees passes; rejections making that impossible reject
 *   sequential  one after another; a rejection rejects it
 */
export function decideApproval(mode: TApprovalMode, states: readonly ApprovalTaskState[], votePassPercent = 100): ApprovalDecision {
  const counted = states.filter((s) => s !== 'closed');
  const n = counted.length;
  const approved = counted.filter((s) => s === 'approved').length;
  const rejected = counted.filter((s) => s === 'rejected').length;
  if (n === 0) return { outcome: 'approved', openNext: null };
  switch (mode) {
    case 'or':
      if (approved > 0) return { outcome: 'approved', openNext: null };
      if (rejected > 0) return { outcome: 'rejected', openNext: null };
      return { outcome: 'open', openNext: null };
    case 'all':
      if (rejected > 0) return { outcome: 'rejected', openNext: null };
      return { outcome: approved === n ? 'approved' : 'open', openNext: null };
    case 'vote': {
      const needed = Math.ceil((n * votePassPercent) / 100 - 1e-9);
      if (approved >= needed) return { outcome: 'approved', openNext: null };
      if (n - rejected < needed) return { outcome: 'rejected', openNext: null };
      return { outcome: 'open', openNext: null };
    }
    case 'sequential': {
      if (rejected > 0) return { outcome: 'rejected', openNext: null };
      if (approved === n) return { outcome: 'approved', openNext: null };
      if (states.some((s) => s === 'pending')) return { outcome: 'open', openNext: null };
      const next = states.findIndex((s) => s === 'waiting');
      return { outcome: 'open', openNext: next >= 0 ? next : null };
    }
  }
}

/**
 * What the holder of a pending approval task may do: the node's own assignees what the node allows;
 * a delegate only hands the task back with an opinion (approve); an added signer approves or, where
 * the node allows it, rejects.
 */
export function pendingTaskActions(actions: TApprovalActions, origin: TWorkflowTaskOrigin | null): TWorkflowTaskAction[] {
  if (origin === 'delegate') return ['approve'];
  if (origin !== null) return actions.reject ? ['approve', 'reject'] : ['approve'];
  const out: TWorkflowTaskAction[] = ['approve'];
  for (const a of ['reject', 'return', 'transfer', 'delegate', 'addSigner', 'removeSigner', 'cc'] as const) if (actions[a]) out.push(a);
  return out;
}
