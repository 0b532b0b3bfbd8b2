import { compileFormula, type FormulaSchema } from '../formula/index.ts';
import type { TAssignee, TWorkflowEdge, TWorkflowGraph, TWorkflowNode, TWorkflowProblem, TWorkflowProblemCode } from '../contracts/workflow.ts';

// The rules a workflow graph must keep to be published (and that the designer shows while one is
// drawn). Pure: the server runs it before a publish with the bound page's controls, the browser
// without them. Problems carry codes (texts are the caller's: server messages, web i18n), the
// node or edge to select, and message parameters. Drafts may break every rule; only publishing
// refuses them.

export type WorkflowGraphProblem = Omit<TWorkflowProblem, 'message'>;

export interface WorkflowGraphCheckOptions {
  /** References formulas may use (the bound page's views); without it any `{code}` passes. */
  formulaSchema?: FormulaSchema;
  /** Controls of the bound page: `code` (master) and `viewCode.code` (child views); without it control codes are not checked. */
  fields?: ReadonlySet<string>;
  /** Master controls an automatic node may assign (default: `fields`). */
  masterFields?: ReadonlySet<string>;
  /** User / organisation-unit picker controls a `formField` assignee may name (default: `masterFields`). */
  pickerFields?: ReadonlySet<string>;
  /** The definition's condition (chooses among the page's definitions), checked as a formula too. */
  definitionCondition?: string | null;
}

/** Node types that pass the flow on along exactly one edge. */
const SINGLE_EXIT = new Set<TWorkflowNode['type']>(['start', 'approval', 'cc', 'automatic', 'join']);

export function validateWorkflowGraph(graph: TWorkflowGraph, options: WorkflowGraphCheckOptions = {}): WorkflowGraphProblem[] {
  const problems: WorkflowGraphProblem[] = [];
  const add = (code: TWorkflowProblemCode, at: { nodeId?: string | null; edgeId?: string | null } = {}, params: Record<string, string | number> = {}, span?: { start: number; end: number }) => {
    problems.push({ code, nodeId: at.nodeId ?? null, edgeId: at.edgeId ?? null, params, ...(span ?? {}) });
  };

  // ---- ids and edges
  const nodes = new Map<string, TWorkflowNode>();
  for (const node of graph.nodes) {
    if (nodes.has(node.id)) add('duplicateNodeId', { nodeId: node.id }, { id: node.id });
    else nodes.set(node.id, node);
  }
  const edgeIds = new Set<string>();
  const pairs = new Set<string>();
  const outgoing = new Map<string, TWorkflowEdge[]>([...nodes.keys()].map((id) => [id, []]));
  const incoming = new Map<string, TWorkflowEdge[]>([...nodes.keys()].map((id) => [id, []]));
  for (const edge of graph.edges) {
    if (edgeIds.has(edge.id)) add('duplicateEdgeId', { edgeId: edge.id }, { id: edge.id });
    edgeIds.add(edge.id);
    let usable = true;
    if (!nodes.has(edge.source)) (add('edgeUnknownSource', { edgeId: edge.id }, { id: edge.source }), (usable = false));
    if (!nodes.has(edge.target)) (add('edgeUnknownTarget', { edgeId: edge.id }, { id: edge.target }), (usable = false));
    if (edge.source === edge.target) (add('selfLoop', { edgeId: edge.id, nodeId: edge.source }), (usable = false));
    if (!usable) continue;
    const pair = `${edge.source}\u0000${edge.target}`;
    if (pairs.has(pair)) {
      add('duplicateEdge', { edgeId: edge.id, nodeId: edge.source });
      continue;
    }
    pairs.add(pair);
    outgoing.get(edge.source)!.push(edge);
    incoming.get(edge.target)!.push(edge);
  }

  // ---- start and end
  const starts = [...nodes.values()].filter((n) => n.type === 'start');
  const ends = [...nodes.values()].filter((n) => n.type === 'end');
  if (starts.length === 0) add('noStart');
  for (const extra of starts.slice(1)) add('multipleStarts', { nodeId: extra.id });
  if (ends.length === 0) add('noEnd');
  for (const s of starts) if (incoming.get(s.id)!.length > 0) add('startHasIncoming', { nodeId: s.id });
  for (const e of ends) if (outgoing.get(e.id)!.length > 0) add('endHasOutgoing', { nodeId: e.id });

  // ---- reachability (only when the start and an end are there: otherwise every node would be named)
  if (starts.length > 0) {
    const reached = traverse([starts[0].id], (id) => outgoing.get(id)!.map((e) => e.target));
    for (const node of nodes.values()) if (!reached.has(node.id)) add('unreachable', { nodeId: node.id });
  }
  if (ends.length > 0) {
    const reachesEnd = traverse(ends.map((e) => e.id), (id) => incoming.get(id)!.map((e) => e.source));
    for (const node of nodes.values()) if (!reachesEnd.has(node.id) && node.type !== 'end') add('noPathToEnd', { nodeId: node.id });
  }

  // ---- node by node
  for (const node of nodes.values()) {
    const out = outgoing.get(node.id)!;
    if (SINGLE_EXIT.has(node.type) && out.length > 1) add('multipleOutgoing', { nodeId: node.id }, { count: out.length });
    if (node.type !== 'exclusive') {
      for (const edge of out) if ((edge.condition ?? '').trim() !== '' || edge.isDefault) add('conditionOutsideExclusive', { edgeId: edge.id, nodeId: node.id });
    }
    switch (node.type) {
      case 'exclusive':
        checkExclusive(node, out, options, add);
        break;
      case 'parallel':
        if (out.length < 2) add('parallelTooFewBranches', { nodeId: node.id }, { count: out.length });
        break;
      case 'join':
        if (incoming.get(node.id)!.length < 2) add('joinTooFewIncoming', { nodeId: node.id }, { count: incoming.get(node.id)!.length });
        break;
      case 'approval': {
        const c = node.config;
        if (c.assignees.length === 0) add('approvalNoAssignees', { nodeId: node.id });
        checkAssignees(node.id, c.assignees, options, add);
        if (c.mode === 'vote' && c.votePassPercent === undefined) add('votePercentMissing', { nodeId: node.id });
        if (c.emptyAssignee.policy === 'toAdmin' && !c.emptyAssignee.adminUserId) add('emptyAssigneeAdminMissing', { nodeId: node.id });
        if (c.timeout?.then === 'escalate' && !c.timeout.escalateToUserId) add('escalateUserMissing', { nodeId: node.id });
        if (options.fields) {
          for (const code of Object.keys(c.fieldPermissions)) if (!options.fields.has(code)) add('unknownControl', { nodeId: node.id }, { control: code });
        }
        break;
      }
      case 'cc':
        if (node.config.recipients.length === 0) add('ccNoRecipients', { nodeId: node.id });
        checkAssignees(node.id, node.config.recipients, options, add);
        break;
      case 'automatic': {
        const assignments = node.config.assignments;
        if (assignments.length === 0) add('automaticNoAssignments', { nodeId: node.id });
        const seen = new Set<string>();
        const targets = options.masterFields ?? options.fields;
        for (const [i, a] of assignments.entries()) {
          if (a.controlCode === '') add('assignmentFieldMissing', { nodeId: node.id }, { index: i + 1 });
          else if (seen.has(a.controlCode)) add('assignmentDuplicate', { nodeId: node.id }, { control: a.controlCode });
          else if (targets && !targets.has(a.controlCode)) add('unknownControl', { nodeId: node.id }, { control: a.controlCode });
          seen.add(a.controlCode);
          const error = formulaProblem(a.formula, options.formulaSchema, true);
          if (error) add('assignmentInvalid', { nodeId: node.id }, { control: a.controlCode, formulaError: error.message }, error);
        }
        break;
      }
      default:
        break;
    }
  }

  checkParallelBlocks(nodes, outgoing, add);

  if (options.definitionCondition && options.definitionCondition.trim() !== '') {
    const error = formulaProblem(options.definitionCondition, options.formulaSchema, false);
    if (error) add('definitionConditionInvalid', {}, { formulaError: error.message }, error);
  }
  return problems;
}

type Add = (code: TWorkflowProblemCode, at?: { nodeId?: string | null; edgeId?: string | null }, params?: Record<string, string | number>, span?: { start: number; end: number }) => void;

function checkExclusive(node: TWorkflowNode, out: TWorkflowEdge[], options: WorkflowGraphCheckOptions, add: Add) {
  if (out.length < 2) add('exclusiveTooFewBranches', { nodeId: node.id }, { count: out.length });
  const defaults = out.filter((e) => e.isDefault);
  if (defaults.length === 0 && out.length > 0) add('exclusiveNoDefault', { nodeId: node.id });
  for (const extra of defaults.slice(1)) add('exclusiveMultipleDefaults', { nodeId: node.id, edgeId: extra.id });
  for (const edge of out) {
    if (edge.isDefault) continue;
    const condition = edge.condition ?? '';
    if (condition.trim() === '') {
      add('conditionMissing', { nodeId: node.id, edgeId: edge.id });
      continue;
    }
    const error = formulaProblem(condition, options.formulaSchema, false);
    if (error) add('conditionInvalid', { nodeId: node.id, edgeId: edge.id }, { formulaError: error.message }, error);
  }
}

function checkAssignees(nodeId: string, assignees: readonly TAssignee[], options: WorkflowGraphCheckOptions, add: Add) {
  const pickers = options.pickerFields ?? options.masterFields ?? options.fields;
  for (const [i, a] of assignees.entries()) {
    const empty =
      (a.kind === 'user' && a.userIds.length === 0) || (a.kind === 'role' && a.roleIds.length === 0) || (a.kind === 'unit' && a.unitIds.length === 0);
    if (empty) add('assigneeEmpty', { nodeId }, { index: i + 1, kind: a.kind });
    if (a.kind === 'formField') {
      if (a.controlCode === '') add('assigneeFieldMissing', { nodeId }, { index: i + 1 });
      else if (pickers && !pickers.has(a.controlCode)) add('unknownControl', { nodeId }, { control: a.controlCode });
    }
  }
}

/** The first compile error of a formula (an empty assignment formula is one too; a condition's emptiness is checked before). */
function formulaProblem(source: string, schema: FormulaSchema | undefined, emptyIsError: boolean): { message: string; start: number; end: number } | null {
  if (source.trim() === '') return emptyIsError ? { message: 'empty formula', start: 0, end: 0 } : null;
  const compiled = compileFormula(source, { schema });
  if (compiled.ok) return null;
  const e = compiled.errors[0];
  return { message: e.message, start: e.start, end: e.end };
}

/**
 * Every parallel split needs a join that all its branches meet again at: a join every path from the
 * split to an end passes through (it post-dominates the split). The nearest such join matches; a
 * join no split matches is an error too.
 */
function checkParallelBlocks(nodes: Map<string, TWorkflowNode>, outgoing: Map<string, TWorkflowEdge[]>, add: Add) {
  const matched = new Set<string>();
  const next = (id: string) => outgoing.get(id)!.map((e) => e.target);
  for (const split of nodes.values()) {
    if (split.type !== 'parallel' || outgoing.get(split.id)!.length < 2) continue;
    const forward = traverse(next(split.id), next);
    const candidates = [...forward].filter((id) => nodes.get(id)?.type === 'join' && id !== split.id);
    let match: string | null = null;
    for (const join of candidates) {
      // Does some path from the split reach an end without passing the join?
      const avoiding = traverse(next(split.id).filter((t) => t !== join), (id) => (id === join ? [] : next(id).filter((t) => t !== join)));
      const escapes = [...avoiding].some((id) => nodes.get(id)?.type === 'end');
      if (!escapes) {
        match = join;
        break;
      }
    }
    if (match) matched.add(match);
    else add('parallelWithoutJoin', { nodeId: split.id });
  }
  for (const node of nodes.values()) if (node.type === 'join' && !matched.has(node.id)) add('joinWithoutParallel', { nodeId: node.id });
}

/** Breadth-first: the nodes reached from `from` (included), in the order reached. */
function traverse(from: readonly string[], next: (id: string) => readonly string[]): Set<string> {
  const seen = new Set<string>(from);
  const queue = [...from];
  for (let i = 0; i < queue.length; i++) {
    for (const n of next(queue[i])) {
      if (!seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
    }
  }
  return seen;
}
