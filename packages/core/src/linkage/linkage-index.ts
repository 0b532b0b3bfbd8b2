import { compileFormula, type CompiledFormula } from '../formula/index.ts';
import { formulaSchemaForView } from '../formula/schema.ts';
import { analyzeDependencies, type DependencyAnalysis, type GraphItem } from '../formula/dependencies.ts';
import type { UserFunctionSet } from '../formula/udf.ts';
import { flattenViews, linkagesOf, type TDataControl, type TDataLinkage, type TPageDefinition, type TView } from '../page-definition.ts';

// Everything about a page definition's linkages that does not depend on data: views and controls
// by id, each linkage's context view, compiled formulas, and the dependency graph over
// view-qualified control keys (`viewId.code`). Built once per definition and cached.

export interface ViewInfo {
  view: TView;
  parent: TView | null;
  controlsByCode: Map<string, TDataControl>;
}

export interface CompiledLinkage {
  id: string;
  linkage: TDataLinkage;
  /** The view whose row the formulas are evaluated in. */
  contextViewId: string;
  triggers: CompiledFormula[];
  assignments: { control: TDataControl; viewId: string; formula: CompiledFormula }[];
  /** Compile problems, for the designer. */
  errors: { formula: string; message: string }[];
}

export interface LinkageIndex {
  views: Map<string, ViewInfo>;
  viewsByCode: Map<string, ViewInfo>;
  controlsById: Map<string, { control: TDataControl; viewId: string }>;
  linkages: CompiledLinkage[];
  graph: GraphItem[];
  /** Linkage ids in dependency order, and cycles between linkages. */
  analysis: DependencyAnalysis;
}

export const controlKey = (viewId: string, code: string) => `${viewId}.${code}`;

const cache = new WeakMap<object, Map<UserFunctionSet | undefined, LinkageIndex>>();

export function linkageIndexOf(definition: TPageDefinition, userFunctions?: UserFunctionSet): LinkageIndex {
  let byUdf = cache.get(definition);
  if (!byUdf) cache.set(definition, (byUdf = new Map()));
  let index = byUdf.get(userFunctions);
  if (!index) byUdf.set(userFunctions, (index = buildIndex(definition, userFunctions)));
  return index;
}

function buildIndex(definition: TPageDefinition, userFunctions?: UserFunctionSet): LinkageIndex {
  const views = new Map<string, ViewInfo>();
  const viewsByCode = new Map<string, ViewInfo>();
  const controlsById = new Map<string, { control: TDataControl; viewId: string }>();
  const flat = flattenViews(definition);
  for (const { view, parent } of flat) {
    const resolvedParent = parent ?? flat.find((v) => v.view.id === view.parentViewControlId)?.view ?? null;
    const info: ViewInfo = { view, parent: resolvedParent, controlsByCode: new Map(view.dataControls.map((c) => [c.code, c])) };
    views.set(view.id, info);
    viewsByCode.set(view.code, info);
    for (const control of view.dataControls) controlsById.set(control.id, { control, viewId: view.id });
  }
  const findControl = (id?: string | null, code?: string | null, preferView?: string) => {
    if (id && controlsById.has(id)) return controlsById.get(id)!;
    if (!code) return undefined;
    const pref = preferView ? views.get(preferView)?.controlsByCode.get(code) : undefined;
    if (pref) return { control: pref, viewId: preferView! };
    for (const [viewId, info] of views) if (info.controlsByCode.has(code)) return { control: info.controlsByCode.get(code)!, viewId };
    return undefined;
  };

  const linkages: CompiledLinkage[] = [];
  const graph: GraphItem[] = [];
  linkagesOf(definition).forEach((linkage, i) => {
    const id = linkage.id ?? `linkage-${i}`;
    const triggerControls = linkage.triggerConditions.map((t) => findControl(t.dataControlId, t.dataControlCode)).filter((x) => x !== undefined);
    const firstTarget = linkage.assignments.map((a) => findControl(a.dataControlId, a.dataControlCode)).find((x) => x !== undefined);
    const contextViewId = triggerControls[0]?.viewId ?? firstTarget?.viewId ?? flat[0]?.view.id ?? '';
    const schema = formulaSchemaForView(definition, contextViewId) ?? undefined;
    const errors: CompiledLinkage['errors'] = [];
    const compile = (source: string) => {
      const f = compileFormula(source, { schema, userFunctions });
      for (const e of f.errors) errors.push({ formula: source, message: `${e.code} ${e.message}` });
      return f;
    };
    const triggers = linkage.triggerConditions.filter((t) => (t.triggerFormula ?? '').trim() !== '').map((t) => compile(t.triggerFormula!));
    const assignments: CompiledLinkage['assignments'] = [];
    for (const a of linkage.assignments) {
      const target = findControl(a.dataControlId, a.dataControlCode, contextViewId);
      if (!target || !(a.assignmentFormula ?? '').trim()) continue;
      assignments.push({ control: target.control, viewId: target.viewId, formula: compile(a.assignmentFormula!) });
    }
    linkages.push({ id, linkage, contextViewId, triggers, assignments, errors });

    // What the linkage reads: its trigger controls and every reference of its formulas.
    const context = views.get(contextViewId);
    const reads = new Set(triggerControls.map((t) => controlKey(t.viewId, t.control.code)));
    for (const f of [...triggers, ...assignments.map((a) => a.formula)]) {
      for (const ref of f.references) {
        if (ref.view !== null) {
          const v = viewsByCode.get(ref.view);
          if (v) reads.add(controlKey(v.view.id, ref.code));
        } else if (context?.controlsByCode.has(ref.code)) reads.add(controlKey(contextViewId, ref.code));
        else if (context?.parent) reads.add(controlKey(context.parent.id, ref.code));
      }
    }
    graph.push({ id, reads: [...reads], writes: assignments.map((a) => controlKey(a.viewId, a.control.code)) });
  });
  return { views, viewsByCode, controlsById, linkages, graph, analysis: analyzeDependencies(graph) };
}
