import { tableFieldTypeOf } from '../controls/registry.ts';
import { flattenViews, type TPageDefinition, type TView } from '../page-definition.ts';
import type { FormulaSchema } from './compiler.ts';
import type { FieldKind } from './values.ts';

// The references a formula may use in a view of a page (for compile-time checks in the designer
// and at run time): the view's own controls, its parent view's controls (the master record), and
// every view by code (child views as lists).

function fieldsOf(view: TView): Record<string, FieldKind> {
  const fields: Record<string, FieldKind> = Object.create(null);
  for (const c of view.dataControls) fields[c.code] = tableFieldTypeOf(c.controlType);
  return fields;
}

export function formulaSchemaForView(definition: Pick<TPageDefinition, 'viewControls'>, viewId: string): FormulaSchema | null {
  const all = flattenViews(definition);
  const entry = all.find((v) => v.view.id === viewId);
  if (!entry) return null;
  const views: Record<string, { isList: boolean; fields: Record<string, FieldKind> }> = Object.create(null);
  for (const { view, parent } of all) views[view.code] = { isList: parent !== null || Boolean(view.parentViewControlId), fields: fieldsOf(view) };
  const parent = entry.parent ?? all.find((v) => v.view.id === entry.view.parentViewControlId)?.view ?? null;
  return { fields: fieldsOf(entry.view), masterFields: parent ? fieldsOf(parent) : undefined, views };
}
