import { describe, expect, it } from 'vitest';
import { WORKFLOW_NODE_TYPES, ZWorkflowGraph, ZWorkflowNode } from '../contracts/workflow.ts';
import type { TDataControl, TPageDefinition, TView } from '../page-definition.ts';
import { newWorkflowGraph, newWorkflowNode } from './defaults.ts';
import { workflowCheckOptionsForPage } from './page-fields.ts';

const control = (code: string, controlType: number): TDataControl => ({ id: code, code, title: code, controlType, isDisplayed: true, isEdit: true });
const view = (code: string, controls: TDataControl[], extra: Partial<TView> = {}): TView => ({
  id: `00000000-0000-4000-8000-${code.padStart(12, '0').slice(-12)}`,
  code,
  title: code,
  viewType: 1,
  dataControls: controls,
  viewButtons: [],
  viewControls: [],
  ...extra,
});

describe('workflowCheckOptionsForPage', () => {
  it('names master controls by code, child controls as view.code, pickers apart, and builds the formula schema', () => {
    const master = view('Master', [control('Amount', 1003), control('Manager', 4001), control('Title', 1001)]);
    const lines = view('Lines', [control('Price', 1003)], { viewType: 2, parentViewControlId: master.id });
    const tabs = view('Tabs', [], { viewType: 3 });
    master.viewControls = [lines];
    const page: TPageDefinition = { viewControls: [master, tabs], pageButtons: [], dataLinkages: [] };
    const options = workflowCheckOptionsForPage(page, '{Amount} > 1');
    expect([...options.fields!]).toEqual(['Amount', 'Manager', 'Title', 'Lines.Price']);
    expect([...options.masterFields!]).toEqual(['Amount', 'Manager', 'Title']);
    expect([...options.pickerFields!]).toEqual(['Manager']);
    expect(options.formulaSchema!.views).toEqual({ Master: { isList: false, fields: { Amount: 3, Manager: 1, Title: 1 } }, Lines: { isList: true, fields: { Price: 3 } } });
    expect(options.definitionCondition).toBe('{Amount} > 1');
  });

  it('copes with a page without views', () => {
    const options = workflowCheckOptionsForPage({ viewControls: [] });
    expect(options.fields!.size).toBe(0);
    expect(options.formulaSchema).toEqual({ fields: {}, masterFields: {}, views: {} });
  });
});

describe('workflow defaults', () => {
  it.each(WORKFLOW_NODE_TYPES)('a new %s node satisfies the contract', (type) => {
    const node = newWorkflowNode(type, `n-${type}`, { x: 10, y: 20 });
    expect(ZWorkflowNode.parse(node)).toEqual(node);
  });

  it('a new graph satisfies the contract', () => {
    expect(ZWorkflowGraph.parse(newWorkflowGraph())).toEqual(newWorkflowGraph());
  });
});
