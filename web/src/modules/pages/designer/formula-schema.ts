import { VIEW_TYPES } from '@tessera/core/contracts/pages';
import { getControlType, tableFieldTypeOf } from '@tessera/core/controls/registry';
import type { FormulaSchema } from '@tessera/core/formula/index';
import type { TableFieldType, TPageDefinition, TView } from '@tessera/core/page-definition';
import type { FormulaReference } from '../../../shared/components/formula-editor/FormulaEditor.tsx';
import { localizedTitle } from '../../../shared/components/page-renderer/control-rules.ts';
import { allViews } from './tree-ops.ts';

// What a formula written on a view may refer to — the same schema the server's design check
// uses: the view's own controls, the master record's (`{code}` falls back to them) and every data
// view by code (`{lines.amount}`; child views are lists).

const isContainer = (v: TView) => Number(v.viewType ?? VIEW_TYPES.form) === VIEW_TYPES.container;
const kinds = (v: TView): Record<string, TableFieldType> => Object.fromEntries(v.dataControls.map((c) => [c.code, tableFieldTypeOf(c.controlType)]));

export function masterViewOf(def: TPageDefinition, view: TView | null): TView | null {
  const byId = new Map(allViews(def).map((v) => [v.id, v]));
  let master = view;
  const seen = new Set<string>();
  while (master?.parentViewControlId && byId.has(master.parentViewControlId) && !seen.has(master.id)) {
    seen.add(master.id);
    master = byId.get(master.parentViewControlId)!;
  }
  return master ?? allViews(def).find((v) => !isContainer(v) && !v.parentViewControlId) ?? null;
}

export function formulaSchemaFor(def: TPageDefinition, view: TView | null): FormulaSchema {
  const master = masterViewOf(def, view);
  const views: Record<string, { isList: boolean; fields: Record<string, TableFieldType> }> = {};
  for (const v of allViews(def)) if (!isContainer(v)) views[v.code] = { isList: Boolean(v.parentViewControlId), fields: kinds(v) };
  return { fields: view && !isContainer(view) ? kinds(view) : master ? kinds(master) : {}, masterFields: master ? kinds(master) : {}, views };
}

/** Autocomplete entries: own and master controls as `{code}`, every control as `{view.code}`. */
export function formulaReferencesFor(def: TPageDefinition, view: TView | null, language: string): FormulaReference[] {
  const master = masterViewOf(def, view);
  const out: FormulaReference[] = [];
  const seen = new Set<string>();
  const push = (ref: string, title: string, controlType: unknown) => {
    if (seen.has(ref)) return;
    seen.add(ref);
    const type = getControlType(controlType as number);
    out.push({ ref, title, typeTitle: language === 'en-US' ? type.en : type.zh });
  };
  for (const v of [view, master]) if (v && !isContainer(v)) v.dataControls.forEach((c) => push(c.code, localizedTitle(c, language), c.controlType));
  for (const v of allViews(def)) if (!isContainer(v)) v.dataControls.forEach((c) => push(`${v.code}.${c.code}`, localizedTitle(c, language), c.controlType));
  return out;
}
