import { describe, expect, it } from 'vitest';
import { ZPageDefinition, type TPageData } from '../page-definition.ts';
import { analyzeLinkages, computedControlIds, recomputeLinkages, runLinkages } from './index.ts';

const ctl = (id: string, code: string, controlType: number, extra: object = {}) => ({ id, code, title: code, controlType, ...extra });
const definition = ZPageDefinition.parse({
  viewControls: [
    {
      id: 'v1', code: 'order', title: 'Order',
      dataControls: [ctl('c-customer', 'customer', 1001), ctl('c-rate', 'rate', 1003), ctl('c-total', 'total', 1003, { extraProperties: { accuracy: 2 } }), ctl('c-status', 'status', 1001)],
      viewControls: [
        {
          id: 'v2', code: 'lines', title: 'Lines', parentViewControlId: 'v1', associateForeignKeyCode: 'orderId',
          dataControls: [ctl('c-qty', 'qty', 1002), ctl('c-price', 'price', 1003), ctl('c-amount', 'amount', 1003), ctl('c-tax', 'tax', 1003)],
        },
        { id: 'v3', code: 'gifts', title: 'Gifts', parentViewControlId: 'v1', associateForeignKeyCode: 'orderId', dataControls: [ctl('c-item', 'item', 1001), ctl('c-n', 'n', 1002)] },
      ],
    },
  ],
  dataLinkages: [
    { id: 'L1', dataLinkType: 1, triggerConditions: [{ dataControlId: 'c-qty', triggerFormula: '{qty} > 0' }], assignments: [{ dataControlId: 'c-amount', assignmentFormula: 'ROUND({qty} * {price}, 2)' }] },
    { id: 'L2', dataLinkType: 1, triggerConditions: [{ dataControlId: 'c-amount' }], assignments: [{ dataControlCode: 'tax', assignmentFormula: 'ROUND({amount} * {rate}, 2)' }] },
    { id: 'L3', dataLinkType: 1, triggerConditions: [{ dataControlId: 'c-amount' }], assignments: [{ dataControlId: 'c-total', assignmentFormula: 'SUM({lines.amount}) + SUM({lines.tax})' }] },
    {
      id: 'L4', dataLinkType: 2, triggerConditions: [{ dataControlId: 'c-status', triggerFormula: '{status} = "closed"' }],
      pageStateControls: [{ controlObjectId: 'c-total', controlObjectType: 1, isHide: false, isReadOnly: true }, { controlObjectId: 'c-rate', controlObjectType: 1, isHide: true, isReadOnly: false }],
      pageEvents: [{ triggerOperationType: 1, assignmentType: 2, bingDataControlId: 'c-total' }],
    },
    {
      id: 'L5', dataLinkType: 1, triggerConditions: [{ dataControlId: 'c-customer', triggerFormula: '{customer} <> ""' }],
      assignments: [{ dataControlId: 'c-item', assignmentFormula: 'LIST("pen", "cup")' }, { dataControlId: 'c-n', assignmentFormula: 'LEN({customer})' }],
    },
  ],
});

const state = (): TPageData => ({
  viewDataList: [
    { viewId: 'v1', dataList: [{ Id: 'o1', DataStatus: 1, customer: 'ACME', rate: 0.1, total: 0, status: 'open' }] },
    {
      viewId: 'v2',
      dataList: [
        { Id: 'l1', ParentViewDataId: 'o1', DataStatus: 1, qty: 3, price: 10, amount: 0, tax: 0 },
        { Id: 'l2', ParentViewDataId: 'o1', DataStatus: 1, qty: 1, price: 5, amount: 5, tax: 0.5 },
      ],
    },
    { viewId: 'v3', dataList: [{ Id: 'g-user', ParentViewDataId: 'o1', DataStatus: 2, item: 'mine', n: 9 }] },
  ],
});
const rowsOf = (s: TPageData, viewId: string) => s.viewDataList.find((v) => v.viewId === viewId)!.dataList;
let seq = 0;
const ctx = { newId: () => `new-${++seq}` };

describe('runLinkages', () => {
  it('runs the changed control’s dependents in order and applies them to a copy', () => {
    const input = state();
    const { effects, state: out } = runLinkages(definition, input, { viewId: 'v2', rowId: 'l1', code: 'qty' }, ctx);
    expect(effects).toEqual([
      { type: 'setValue', linkageId: 'L1', viewId: 'v2', rowId: 'l1', code: 'amount', value: 30 },
      { type: 'setValue', linkageId: 'L2', viewId: 'v2', rowId: 'l1', code: 'tax', value: 3 },
      { type: 'setValue', linkageId: 'L3', viewId: 'v1', rowId: 'o1', code: 'total', value: 38.5 },
    ]);
    expect(rowsOf(out, 'v2')[0]).toMatchObject({ amount: 30, tax: 3 });
    expect(rowsOf(out, 'v1')[0].total).toBe(38.5);
    expect(rowsOf(input, 'v2')[0].amount).toBe(0);
  });

  it('fires only when the trigger formula is true', () => {
    const s = state();
    rowsOf(s, 'v2')[0].qty = 0;
    const { effects } = runLinkages(definition, s, { viewId: 'v2', rowId: 'l1', dataControlId: 'c-qty' }, ctx);
    expect(effects.map((e) => e.linkageId)).not.toContain('L1');
  });

  it('a master change recomputes the dependents in every child row, nothing else', () => {
    const s = state();
    rowsOf(s, 'v1')[0].rate = 0.2;
    const { effects } = runLinkages(definition, s, { viewId: 'v1', rowId: 'o1', code: 'rate' }, ctx);
    expect(effects).toEqual([
      { type: 'setValue', linkageId: 'L2', viewId: 'v2', rowId: 'l1', code: 'tax', value: 0 },
      { type: 'setValue', linkageId: 'L2', viewId: 'v2', rowId: 'l2', code: 'tax', value: 1 },
      // The total reads the taxes; it runs once for the master record, not once per line.
      { type: 'setValue', linkageId: 'L3', viewId: 'v1', rowId: 'o1', code: 'total', value: 6 },
    ]);
  });

  it('a control nothing depends on has no effects', () => {
    expect(runLinkages(definition, state(), { viewId: 'v2', rowId: 'l1', code: 'price' }, ctx).effects.map((e) => e.linkageId)).toEqual(['L1', 'L2', 'L3']);
    expect(runLinkages(definition, state(), { viewId: 'v3', rowId: 'g-user', code: 'item' }, ctx).effects).toEqual([]);
  });

  it('type 2: isDisplayed = !isHide, isEdit = !isReadOnly, page events as data', () => {
    const s = state();
    expect(runLinkages(definition, s, { viewId: 'v1', code: 'status' }, ctx).effects).toEqual([]);
    rowsOf(s, 'v1')[0].status = 'CLOSED';
    expect(runLinkages(definition, s, { viewId: 'v1', code: 'status' }, ctx).effects).toEqual([
      { type: 'pageEvent', linkageId: 'L4', triggerOperationType: 1, assignmentType: 2, bingDataControlId: 'c-total' },
      { type: 'controlState', linkageId: 'L4', controlObjectId: 'c-total', controlObjectType: 1, isDisplayed: true, isEdit: false },
      { type: 'controlState', linkageId: 'L4', controlObjectId: 'c-rate', controlObjectType: 1, isDisplayed: false, isEdit: true },
    ]);
  });

  it('creates linked child rows with DataStatus 2 and replaces them when it fires again', () => {
    seq = 0;
    const first = runLinkages(definition, state(), { viewId: 'v1', rowId: 'o1', code: 'customer' }, ctx);
    const linked = [
      { Id: 'new-1', ParentViewDataId: 'o1', DataStatus: 2, isLink: true, orderId: 'o1', item: 'pen', n: 4 },
      { Id: 'new-2', ParentViewDataId: 'o1', DataStatus: 2, isLink: true, orderId: 'o1', item: 'cup', n: 4 },
    ];
    expect(first.effects).toEqual([{ type: 'replaceLinkedRows', linkageId: 'L5', viewId: 'v3', parentRowId: 'o1', removedRowIds: [], rows: linked }]);
    rowsOf(first.state, 'v1')[0].customer = 'Contoso';
    const second = runLinkages(definition, first.state, { viewId: 'v1', rowId: 'o1', code: 'customer' }, ctx);
    expect(second.effects[0]).toMatchObject({ type: 'replaceLinkedRows', removedRowIds: ['new-1', 'new-2'] });
    // The user's own row survives; linked rows are replaced, keeping their ids.
    expect(rowsOf(second.state, 'v3').map((r) => [r.Id, r.item, r.n])).toEqual([['g-user', 'mine', 9], ['new-1', 'pen', 7], ['new-2', 'cup', 7]]);
  });
});

describe('recomputeLinkages (server save)', () => {
  it('replaces values computed by the client with its own', () => {
    const tampered = state();
    rowsOf(tampered, 'v2')[0].amount = 999_999;
    rowsOf(tampered, 'v1')[0].total = 1;
    seq = 0;
    const { state: out } = recomputeLinkages(definition, tampered, ctx);
    expect(rowsOf(out, 'v2').map((r) => [r.amount, r.tax])).toEqual([[30, 3], [5, 0.5]]);
    expect(rowsOf(out, 'v1')[0].total).toBe(38.5);
    expect(rowsOf(out, 'v3').filter((r) => r.isLink)).toHaveLength(2);
  });

  it('limits the recompute to the dependents of the changed controls', () => {
    const { effects } = recomputeLinkages(definition, state(), ctx, [{ viewId: 'v1', code: 'rate' }]);
    expect(effects.map((e) => e.linkageId)).toEqual(['L2', 'L2', 'L3']);
  });
});

describe('analyzeLinkages (designer)', () => {
  it('reports formula errors and cycles', () => {
    const cyclic = ZPageDefinition.parse({
      viewControls: [{ id: 'v', code: 'main', dataControls: [ctl('a', 'a', 1002), ctl('b', 'b', 1002)] }],
      dataLinkages: [
        { id: 'A', dataLinkType: 1, triggerConditions: [{ dataControlId: 'a' }], assignments: [{ dataControlId: 'b', assignmentFormula: '{a} + 1' }] },
        { id: 'B', dataLinkType: 1, triggerConditions: [{ dataControlId: 'b' }], assignments: [{ dataControlId: 'a', assignmentFormula: '{b} + {nope}' }] },
      ],
    });
    const report = analyzeLinkages(cyclic);
    expect(report.cycles.map((c) => [...c].sort())).toEqual([['A', 'B']]);
    expect(report.errors).toEqual([{ linkageId: 'B', formula: '{b} + {nope}', message: '#REF! Unknown reference {nope}' }]);
    expect(analyzeLinkages(definition)).toEqual({ errors: [], cycles: [] });
  });
});

describe('computedControlIds', () => {
  it('names the targets of unconditional assignments and calculated controls, not those of conditional ones', () => {
    expect([...computedControlIds(definition)].sort()).toEqual(['c-tax', 'c-total']);
    const calculated = ZPageDefinition.parse({
      viewControls: [{ id: 'v', code: 'v', title: 'v', dataControls: [ctl('c-a', 'a', 1003, { valueTakingType: 2 }), ctl('c-b', 'b', 1003), ctl('c-c', 'c', 1003)] }],
      dataLinkages: [{ id: 'T', dataLinkType: 1, triggerConditions: [{ dataControlId: 'c-b', triggerFormula: ' true ' }], assignments: [{ dataControlId: 'c-c', assignmentFormula: '{b} * 2' }] }],
    });
    expect([...computedControlIds(calculated)].sort()).toEqual(['c-a', 'c-c']);
  });
});

describe('a calculated control with its own formula', () => {
  const own = ZPageDefinition.parse({
    viewControls: [
      {
        id: 'm', code: 'order', title: 'Order', dataControls: [ctl('c-sum', 'total', 1003, { valueTakingType: 2, extraProperties: { formula: 'SUM({lines.amount})', accuracy: 2 } })],
        viewControls: [{ id: 'l', code: 'lines', title: 'Lines', parentViewControlId: 'm', associateForeignKeyCode: 'orderId', dataControls: [ctl('c-q', 'qty', 1002), ctl('c-p', 'price', 1003), ctl('c-a', 'amount', 1003, { valueTakingType: 2, extraProperties: { formula: '{qty} * {price}', accuracy: 2 } })] }],
      },
    ],
  });
  const data = (): TPageData => ({
    viewDataList: [
      { viewId: 'm', dataList: [{ Id: 'o', DataStatus: 1, total: 0 }] },
      { viewId: 'l', dataList: [{ Id: 'a', ParentViewDataId: 'o', DataStatus: 1, qty: 3, price: 2.5, amount: 0 }, { Id: 'b', ParentViewDataId: 'o', DataStatus: 1, qty: 2, price: 4, amount: 0 }] },
    ],
  });
  const value = (state: TPageData, view: string, row: string, code: string) => state.viewDataList.find((v) => v.viewId === view)!.dataList.find((r) => r.Id === row)![code];

  it('is computed without a linkage: over the whole page, and again when what it reads changes', () => {
    const all = recomputeLinkages(own, data());
    expect([value(all.state, 'l', 'a', 'amount'), value(all.state, 'l', 'b', 'amount'), value(all.state, 'm', 'o', 'total')]).toEqual([7.5, 8, 15.5]);
    const edited = structuredClone(all.state);
    (edited.viewDataList[1]!.dataList[0] as Record<string, unknown>).qty = 4;
    const after = runLinkages(own, edited, { viewId: 'l', rowId: 'a', code: 'qty' });
    expect([value(after.state, 'l', 'a', 'amount'), value(after.state, 'm', 'o', 'total')]).toEqual([10, 18]);
    expect([...computedControlIds(own)].sort()).toEqual(['c-a', 'c-sum']);
  });

  it('reports a broken formula like any linkage', () => {
    const broken = ZPageDefinition.parse({ viewControls: [{ id: 'v', code: 'v', title: 'v', dataControls: [ctl('c-x', 'x', 1003, { valueTakingType: 2, extraProperties: { formula: '{x} +' } })] }] });
    expect(analyzeLinkages(broken).errors.map((e) => e.linkageId)).toEqual(['formula:c-x']);
  });
});
