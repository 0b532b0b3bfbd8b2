import { describe, expect, it } from 'vitest';
import type { TPageDefinition, TView } from '../page-definition.ts';
import { approverMayChangeRows, approverPageDefinition, mergeFieldPermissions } from './field-permissions.ts';

const control = (id: string, code: string, extra: object = {}) => ({ id, code, title: code, controlType: 1001, isDisplayed: true, isEdit: true, ...extra });
const lines: TView = { id: 'v2', code: 'Lines', title: 'Lines', viewType: 2, parentViewControlId: 'v1', associateForeignKeyCode: 'ParentViewDataId', dataControls: [control('c3', 'Item'), control('c4', 'Price'), control('c5', 'Total', { valueTakingType: 2 })], viewButtons: [], viewControls: [] } as TView;
const master: TView = { id: 'v1', code: 'Master', title: 'Master', viewType: 1, dataControls: [control('c1', 'Amount'), control('c2', 'Secret')], viewButtons: [], viewControls: [lines] } as TView;
const definition = { viewControls: [master], pageButtons: [], dataLinkages: [] } as unknown as TPageDefinition;

describe('approval nodes\' field permissions', () => {
  it('merges several pending tasks: the most permissive per field; unnamed counts as read-only', () => {
    expect(mergeFieldPermissions([{ A: 'editable', B: 'hidden', C: 'hidden' }, { A: 'readonly', C: 'hidden' }])).toEqual({ A: 'editable', B: 'readonly', C: 'hidden' });
    expect(mergeFieldPermissions([{ B: 'hidden' }])).toEqual({ B: 'hidden' });
    expect(mergeFieldPermissions([])).toEqual({});
  });

  it('rows of a view change only when every control a user sets is editable', () => {
    const computed = (c: { code: string }) => c.code === 'Total';
    expect(approverMayChangeRows(lines, lines.dataControls, computed, { 'Lines.Item': 'editable', 'Lines.Price': 'editable' })).toBe(true);
    expect(approverMayChangeRows(lines, lines.dataControls, computed, { 'Lines.Price': 'editable' })).toBe(false);
    expect(approverMayChangeRows(lines, [], computed, {})).toBe(false);
  });

  it('shapes the approver\'s form: read-only but editable fields, hidden ones not displayed, fixed rows', () => {
    const { definition: shaped, fixedRowViews } = approverPageDefinition(definition, { Amount: 'editable', Secret: 'hidden', 'Lines.Price': 'editable' });
    const [m] = shaped.viewControls;
    expect(m!.dataControls.map((c) => [c.code, c.isEdit, c.isDisplayed])).toEqual([['Amount', true, true], ['Secret', false, false]]);
    expect(m!.viewControls![0]!.dataControls.map((c) => [c.code, c.isEdit])).toEqual([['Item', false], ['Price', true], ['Total', false]]);
    expect([...fixedRowViews]).toEqual(['v2']);
    // The design passed in stays as it was.
    expect(master.dataControls[1]!.isDisplayed).toBe(true);
  });
});
