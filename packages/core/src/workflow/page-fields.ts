import { VIEW_TYPES } from '../contracts/pages.ts';
import { ControlTypeId, tableFieldTypeOf } from '../controls/registry.ts';
import { flattenViews, type TableFieldType, type TPageDefinition, type TView } from '../page-definition.ts';
import type { WorkflowGraphCheckOptions } from './validate-graph.ts';

// What a workflow bound to a page may name: formulas see the master record's controls as `{code}`
// and every data view as `{view.code}` (child views are lists: `SUM({lines.amount})`), the same
// schema the page designer checks linkages with; field permissions name master controls by code
// and child controls as `viewCode.code`; automatic nodes assign master controls; `formField`
// assignees name a master user / organisation-unit picker (4001).

const isContainer = (v: TView) => Number(v.viewType ?? VIEW_TYPES.form) === VIEW_TYPES.container;
const kinds = (v: TView): Record<string, TableFieldType> => Object.fromEntries(v.dataControls.map((c) => [c.code, tableFieldTypeOf(c.controlType)]));

/** The page's master view: its first top-level data view. */
export function masterViewOf(definition: Pick<TPageDefinition, 'viewControls'>): TView | null {
  return flattenViews(definition).find(({ view }) => !isContainer(view) && !view.parentViewControlId)?.view ?? null;
}

/** The check options `validateWorkflowGraph` takes for a graph bound to a published page. */
export function workflowCheckOptionsForPage(definition: Pick<TPageDefinition, 'viewControls'>, definitionCondition?: string | null): WorkflowGraphCheckOptions {
  const master = masterViewOf(definition);
  const views: Record<string, { isList: boolean; fields: Record<string, TableFieldType> }> = {};
  const fields = new Set<string>();
  const masterFields = new Set<string>();
  const pickerFields = new Set<string>();
  for (const { view } of flattenViews(definition)) {
    if (isContainer(view)) continue;
    views[view.code] = { isList: Boolean(view.parentViewControlId), fields: kinds(view) };
    for (const control of view.dataControls) {
      if (view === master) {
        fields.add(control.code);
        masterFields.add(control.code);
        if (Number(control.controlType) === ControlTypeId.UserOrgPicker) pickerFields.add(control.code);
      } else fields.add(`${view.code}.${control.code}`);
    }
  }
  const masterKinds = master ? kinds(master) : {};
  return { formulaSchema: { fields: masterKinds, masterFields: masterKinds, views }, fields, masterFields, pickerFields, definitionCondition };
}
