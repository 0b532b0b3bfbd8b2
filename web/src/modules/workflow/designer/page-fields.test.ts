import type { TPageDefinition } from '@tessera/core/page-definition';
import { describe, expect, it } from 'vitest';
import { pageFieldsOf } from './page-fields.ts';

const control = (code: string, title: string, controlType: number) => ({ id: code, code, title, controlType, isDisplayed: true, isEdit: true });
const definition = {
  viewControls: [
    {
      id: 'm',
      code: 'order',
      title: '订单',
      viewType: 1,
      dataControls: [control('total', '总金额', 1015), control('applicant', '申请人', 4001)],
      viewButtons: [],
      viewControls: [
        { id: 'l', code: 'lines', title: '明细', viewType: 2, parentViewControlId: 'm', dataControls: [control('amount', '金额', 1015)], viewButtons: [], viewControls: [] },
      ],
    },
  ],
} as unknown as TPageDefinition;

describe('the bound page as the workflow sees it', () => {
  it('names master controls by code and child controls as view.code, and finds the pickers', () => {
    const page = pageFieldsOf(definition, 'zh-CN');
    expect(page.fields.map((f) => [f.ref, f.title, f.viewTitle, f.isPicker])).toEqual([
      ['total', '总金额', null, false],
      ['applicant', '申请人', null, true],
      ['lines.amount', '金额', '明细', false],
    ]);
    expect([...page.masterRefs]).toEqual(['total', 'applicant']);
    expect([...page.pickerRefs]).toEqual(['applicant']);
    expect(page.references.map((r) => r.ref)).toContain('lines.amount');
    expect(page.formulaSchema.views?.lines?.isList).toBe(true);
  });

  it('is empty without a published design', () => {
    expect(pageFieldsOf(null, 'zh-CN').fields).toEqual([]);
  });
});
