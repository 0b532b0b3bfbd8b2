import { describe, expect, it } from 'vitest';
import { ZWorkflowGraph, type TWorkflowEdge, type TWorkflowGraph, type TWorkflowNode } from '../contracts/workflow.ts';
import { newWorkflowEdge as edge, newWorkflowGraph, newWorkflowNode as node } from './defaults.ts';
import { validateWorkflowGraph, type WorkflowGraphCheckOptions } from './validate-graph.ts';

const approval = (id: string, userId = '3f0e8f4a-1d2b-4c5d-8e9f-0a1b2c3d4e5f') => {
  const n = node('approval', id);
  n.config.assignees = [{ kind: 'user', userIds: [userId] }];
  return n;
};
const graph = (nodes: TWorkflowNode[], edges: TWorkflowEdge[]): TWorkflowGraph => ZWorkflowGraph.parse({ nodes, edges });
const codes = (g: TWorkflowGraph, options?: WorkflowGraphCheckOptions) => validateWorkflowGraph(g, options).map((p) => `${p.code}@${p.edgeId ?? p.nodeId ?? '-'}`);

/** start → a → exclusive x → (amount > 10000) b → end; default → end */
function conditional(condition = '{amount} > 10000'): TWorkflowGraph {
  return graph(
    [node('start', 's'), approval('a'), node('exclusive', 'x'), approval('b'), node('end', 'e')],
    [edge('1', 's', 'a'), edge('2', 'a', 'x'), edge('3', 'x', 'b', { condition }), edge('4', 'x', 'e', { isDefault: true }), edge('5', 'b', 'e')],
  );
}

/** start → p → (a, b) → j → end */
function parallel(): TWorkflowGraph {
  return graph(
    [node('start', 's'), node('parallel', 'p'), approval('a'), approval('b'), node('join', 'j'), node('end', 'e')],
    [edge('1', 's', 'p'), edge('2', 'p', 'a'), edge('3', 'p', 'b'), edge('4', 'a', 'j'), edge('5', 'b', 'j'), edge('6', 'j', 'e')],
  );
}

describe('validateWorkflowGraph', () => {
  it('accepts the new graph, a condition branch and a parallel block', () => {
    expect(codes(newWorkflowGraph())).toEqual([]);
    expect(codes(conditional())).toEqual([]);
    expect(codes(conditional('SUM({lines.amount}) > 10000'))).toEqual([]);
    expect(codes(parallel())).toEqual([]);
  });

  it('accepts nested parallel blocks and matches each split with its own join', () => {
    const g = graph(
      [node('start', 's'), node('parallel', 'p1'), node('parallel', 'p2'), approval('a'), approval('b'), node('join', 'j2'), approval('c'), node('join', 'j1'), node('end', 'e')],
      [
        edge('1', 's', 'p1'), edge('2', 'p1', 'p2'), edge('3', 'p2', 'a'), edge('4', 'p2', 'b'), edge('5', 'a', 'j2'), edge('6', 'b', 'j2'),
        edge('7', 'j2', 'j1'), edge('8', 'p1', 'c'), edge('9', 'c', 'j1'), edge('10', 'j1', 'e'),
      ],
    );
    expect(codes(g)).toEqual([]);
  });

  it.each<[string, () => TWorkflowGraph, string[]]>([
    ['no start', () => graph([node('end', 'e')], []), ['noStart@-']],
    ['no end', () => graph([node('start', 's')], []), ['noEnd@-']],
    [
      'two starts',
      () => graph([node('start', 's'), node('start', 's2'), node('end', 'e')], [edge('1', 's', 'e'), edge('2', 's2', 'e')]),
      ['multipleStarts@s2', 'unreachable@s2'],
    ],
    [
      'edges into the start and out of the end',
      () => graph([node('start', 's'), approval('a'), node('end', 'e')], [edge('1', 's', 'a'), edge('2', 'a', 'e'), edge('3', 'e', 's')]),
      ['startHasIncoming@s', 'endHasOutgoing@e'],
    ],
    [
      'dangling edges and a self loop',
      () => graph([node('start', 's'), approval('a'), node('end', 'e')], [edge('1', 's', 'a'), edge('2', 'a', 'e'), edge('3', 'a', 'a'), edge('4', 'a', 'zz'), edge('5', 'yy', 'e')]),
      ['selfLoop@3', 'edgeUnknownTarget@4', 'edgeUnknownSource@5'],
    ],
    [
      'duplicate ids',
      () => graph([node('start', 's'), node('end', 'e'), node('end', 'e')], [edge('1', 's', 'e'), edge('1', 's', 'e')]),
      ['duplicateNodeId@e', 'duplicateEdgeId@1', 'duplicateEdge@1'],
    ],
    [
      'an unreachable node and a node that never ends',
      () => graph([node('start', 's'), approval('a'), approval('b'), node('end', 'e')], [edge('1', 's', 'e'), edge('2', 'b', 'e'), edge('3', 's', 'a')]),
      ['unreachable@b', 'noPathToEnd@a', 'multipleOutgoing@s'],
    ],
    [
      'a condition branch without a default',
      () => {
        const g = conditional();
        g.edges[3].isDefault = false;
        g.edges[3].condition = '{amount} <= 10000';
        return g;
      },
      ['exclusiveNoDefault@x'],
    ],
    [
      'a condition branch with two defaults and a missing condition',
      () => {
        const g = conditional();
        g.edges[2] = { ...g.edges[2], condition: undefined, isDefault: true };
        g.nodes.push(approval('c'));
        g.edges.push(edge('6', 'x', 'c'), edge('7', 'c', 'e'));
        return g;
      },
      ['exclusiveMultipleDefaults@4', 'conditionMissing@6'],
    ],
    ['a condition that does not parse', () => conditional('{amount} > > 1'), ['conditionInvalid@3']],
    ['an unknown function', () => conditional('NOPE({amount})'), ['conditionInvalid@3']],
    [
      'an exclusive with one branch',
      () => graph([node('start', 's'), node('exclusive', 'x'), node('end', 'e')], [edge('1', 's', 'x'), edge('2', 'x', 'e', { isDefault: true })]),
      ['exclusiveTooFewBranches@x'],
    ],
    [
      'a condition on an ordinary edge',
      () => graph([node('start', 's'), node('end', 'e')], [edge('1', 's', 'e', { condition: '{a} > 1' })]),
      ['conditionOutsideExclusive@1'],
    ],
    [
      'a parallel split without its join',
      () =>
        graph(
          [node('start', 's'), node('parallel', 'p'), approval('a'), approval('b'), node('end', 'e')],
          [edge('1', 's', 'p'), edge('2', 'p', 'a'), edge('3', 'p', 'b'), edge('4', 'a', 'e'), edge('5', 'b', 'e')],
        ),
      ['parallelWithoutJoin@p'],
    ],
    [
      'a join that one branch escapes',
      () => {
        const g = parallel();
        g.nodes.push(approval('c'));
        g.edges.push(edge('7', 'p', 'c'), edge('8', 'c', 'e'));
        return g;
      },
      ['parallelWithoutJoin@p', 'joinWithoutParallel@j'],
    ],
    [
      'a join without a split',
      () => graph([node('start', 's'), node('join', 'j'), node('end', 'e')], [edge('1', 's', 'j'), edge('2', 'j', 'e')]),
      ['joinTooFewIncoming@j', 'joinWithoutParallel@j'],
    ],
    [
      'approval rules',
      () => {
        const a = node('approval', 'a');
        a.config.mode = 'vote';
        a.config.emptyAssignee = { policy: 'toAdmin' };
        a.config.timeout = { afterMinutes: 60, then: 'escalate' };
        const b = node('approval', 'b');
        b.config.assignees = [{ kind: 'role', roleIds: [] }, { kind: 'formField', controlCode: '' }];
        const c = node('cc', 'c');
        return graph([node('start', 's'), a, b, c, node('end', 'e')], [edge('1', 's', 'a'), edge('2', 'a', 'b'), edge('3', 'b', 'c'), edge('4', 'c', 'e')]);
      },
      ['approvalNoAssignees@a', 'votePercentMissing@a', 'emptyAssigneeAdminMissing@a', 'escalateUserMissing@a', 'assigneeEmpty@b', 'assigneeFieldMissing@b', 'ccNoRecipients@c'],
    ],
    [
      'automatic node rules',
      () => {
        const empty = node('automatic', 'x');
        const auto = node('automatic', 'y');
        auto.config.assignments = [
          { controlCode: 'status', formula: '"done"' },
          { controlCode: 'status', formula: '1' },
          { controlCode: '', formula: '1 +' },
        ];
        return graph([node('start', 's'), empty, auto, node('end', 'e')], [edge('1', 's', 'x'), edge('2', 'x', 'y'), edge('3', 'y', 'e')]);
      },
      ['automaticNoAssignments@x', 'assignmentDuplicate@y', 'assignmentFieldMissing@y', 'assignmentInvalid@y'],
    ],
  ])('%s', (_, make, expected) => {
    expect(codes(make())).toEqual(expected);
  });

  it('checks controls and formula references against the page when given', () => {
    const g = conditional('AND({total} > 10000, SUM({lines.price}) > 0)');
    const a = g.nodes[1] as Extract<TWorkflowNode, { type: 'approval' }>;
    a.config.fieldPermissions = { amount: 'editable', 'lines.amount': 'readonly', ghost: 'hidden' };
    a.config.assignees.push({ kind: 'formField', controlCode: 'amount' });
    const options: WorkflowGraphCheckOptions = {
      formulaSchema: { fields: { amount: 2 }, masterFields: { amount: 2 }, views: { lines: { isList: true, fields: { amount: 2 } } } },
      fields: new Set(['amount', 'lines.amount']),
      pickerFields: new Set(['manager']),
      definitionCondition: '{nope} = 1',
    };
    const problems = validateWorkflowGraph(g, options);
    expect(problems.map((p) => `${p.code}@${p.nodeId ?? p.edgeId ?? '-'}:${p.params.control ?? ''}`)).toEqual([
      'unknownControl@a:amount',
      'unknownControl@a:ghost',
      'conditionInvalid@x:',
      'definitionConditionInvalid@-:',
    ]);
    const condition = problems.find((p) => p.code === 'conditionInvalid')!;
    expect(condition.edgeId).toBe('3');
    expect(condition.start).toBeGreaterThanOrEqual(0);
    expect(condition.end).toBeGreaterThan(condition.start!);
  });

  it('stays fast on the largest graph the contract allows', () => {
    const nodes: TWorkflowNode[] = [node('start', 's')];
    const edges: TWorkflowEdge[] = [];
    let prev = 's';
    for (let i = 0; i < 99; i++) {
      nodes.push(node('parallel', `p${i}`), approval(`x${i}`), node('join', `j${i}`));
      edges.push(edge(`a${i}`, prev, `p${i}`), edge(`b${i}`, `p${i}`, `j${i}`), edge(`c${i}`, `p${i}`, `x${i}`), edge(`d${i}`, `x${i}`, `j${i}`));
      prev = `j${i}`;
    }
    nodes.push(node('end', 'e'));
    edges.push(edge('last', prev, 'e'));
    const started = performance.now();
    expect(validateWorkflowGraph(ZWorkflowGraph.parse({ nodes, edges }))).toEqual([]);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
