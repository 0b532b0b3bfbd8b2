import { ControlTypeId, controlDefaultQuery, controlSourceQuery, getControlType, isKnownControlType, tableFieldTypeOf } from '@tessera/core/controls/registry';
import { columnFieldType } from '@tessera/core/contracts/data-sources';
import { localizeCoreMessage } from '@tessera/core/messages/core-messages';
import { analyzeDependencies, compileFormula, type FormulaSchema, type GraphItem } from '@tessera/core/formula/index';
import { flattenViews, linkagesOf, type TableFieldType, type TDataControl, type TPageDefinition, type TSourceQueryRef, type TView } from '@tessera/core/page-definition';
import {
  identifierIssues,
  isReservedColumnName,
  VIEW_TYPES,
  type TDesignProblem,
} from '@tessera/core/contracts/pages';
import type { Translate } from './pages.messages.ts';

// Design-time checks (`POST /{id}/check`, and before every publish): unique ids and codes, known
// control types, views and their parents, child foreign keys, formulas that compile, linkages
// without cycles, lookup mappings between existing controls of compatible types. Pure: the
// caller supplies the published views that lookups read from.

/** A field of a lookup's data source (a view of a published page). */
export interface SourceView {
  fields: ReadonlyMap<string, { code: string; tableFieldType: TableFieldType | 'uuid' }>;
}
export type SourceViewResolver = (viewId: string) => SourceView | null;
/** A saved query of a data source a control reads (issue 16): its result columns as fields, its parameter names. */
export interface QuerySource extends SourceView {
  parameters: ReadonlySet<string>;
}
/** The saved query a reference names, or null when its source or the query does not exist. */
export type QuerySourceResolver = (ref: TSourceQueryRef) => QuerySource | null;

/** A saved query's result columns as lookup fields (their types read from the database's type names). */
export function querySourceOf(columns: readonly { name: string; dataType: string }[], parameters: readonly { name: string }[]): QuerySource {
  const fields = new Map<string, { code: string; tableFieldType: TableFieldType }>();
  for (const c of columns) fields.set(c.name.toLowerCase(), { code: c.name, tableFieldType: columnFieldType(c.dataType) });
  return { fields, parameters: new Set(parameters.map((p) => p.name)) };
}

/** Every saved query a design's controls read (to load them before checking). */
export function sourceQueryRefs(definition: TPageDefinition): TSourceQueryRef[] {
  return flattenViews(definition).flatMap(({ view }) => view.dataControls.flatMap((c) => [controlSourceQuery(c), controlDefaultQuery(c)].filter((q): q is TSourceQueryRef => q !== null)));
}

export const PARENT_KEY = 'ParentViewDataId';
const RESERVED_BUTTON_CODES = new Set(['access', 'field', 'action']);
const LOOKUP_TYPES = new Set<number>([ControlTypeId.Lookup, ControlTypeId.Id, ControlTypeId.Ids]);

const isContainer = (v: TView) => Number(v.viewType ?? VIEW_TYPES.form) === VIEW_TYPES.container;

/** A value of a control of field type `source` can be stored in one of field type `target`. */
export function compatibleFieldTypes(source: TableFieldType | 'uuid', target: TableFieldType): boolean {
  if (target === 1) return true;
  if (source === 'uuid') return target === 6;
  if (source === target) return true;
  if (source === 2 && target === 3) return true;
  if (target === 6) return source === 1;
  return false;
}

/** Every view id a design's lookups read from (to load them before checking). */
export function lookupSourceIds(definition: TPageDefinition): string[] {
  const ids = new Set<string>();
  for (const { view } of flattenViews(definition)) {
    for (const c of view.dataControls) {
      const source = c.extraProperties?.dataSourceId;
      if (typeof source === 'string' && source) ids.add(source);
    }
  }
  return [...ids];
}

export function checkDesign(definition: TPageDefinition, t: Translate, resolveSource: SourceViewResolver = () => null, resolveQuery: QuerySourceResolver = () => null): TDesignProblem[] {
  const problems: TDesignProblem[] = [];
  const add = (p: Omit<TDesignProblem, 'controlId' | 'viewId'> & { controlId?: string | null; viewId?: string | null }) =>
    problems.push({ ...p, controlId: p.controlId ?? null, viewId: p.viewId ?? null });

  // Identifier syntax (normally already refused on save; a stored legacy design may still carry them).
  for (const issue of identifierIssues(definition)) {
    const located = locate(definition, issue.path);
    add({ kind: 'invalidCode', message: `${issue.path.join('.')}: ${localizeCoreMessage(issue.message, t.culture)}`, viewId: located.viewId, controlId: located.controlId });
  }

  const all = flattenViews(definition);
  const viewById = new Map<string, TView>();
  const controlById = new Map<string, { control: TDataControl; view: TView }>();
  const buttonIds = new Set<string>();
  const viewCodes = new Map<string, TView>();
  const buttonCodes = new Map<string, string>();

  for (const { view } of all) {
    if (viewById.has(view.id)) add({ kind: 'duplicateId', message: t('check.duplicateViewId', { id: view.id }), viewId: view.id });
    viewById.set(view.id, view);
    const vc = view.code.toLowerCase();
    if (viewCodes.has(vc)) add({ kind: 'duplicateCode', message: t('check.duplicateViewCode', { code: view.code }), viewId: view.id });
    else viewCodes.set(vc, view);
    if (isContainer(view) && view.dataControls.length > 0) {
      add({ kind: 'containerControls', message: t('check.containerControls', { view: view.code }), viewId: view.id });
    }

    const codes = new Map<string, TDataControl>();
    for (const control of view.dataControls) {
      if (controlById.has(control.id)) add({ kind: 'duplicateId', message: t('check.duplicateControlId', { id: control.id }), viewId: view.id, controlId: control.id });
      else controlById.set(control.id, { control, view });
      const key = control.code.toLowerCase();
      if (codes.has(key)) {
        add({ kind: 'duplicateCode', message: t('check.duplicateControlCode', { code: control.code, view: view.code }), viewId: view.id, controlId: control.id });
      } else codes.set(key, control);
      if (!isKnownControlType(control.controlType)) {
        add({ kind: 'unknownControlType', message: t('check.unknownControlType', { code: control.code, type: String(control.controlType) }), viewId: view.id, controlId: control.id });
      }
    }
    // Id/Ids controls keep a list companion `<code>Array` in the record: no control may take that name.
    for (const control of view.dataControls) {
      if (!getControlType(control.controlType).hasArrayCompanion) continue;
      const clash = codes.get(`${control.code}Array`.toLowerCase());
      if (clash) add({ kind: 'duplicateCode', message: t('check.arrayCompanion', { code: clash.code, owner: control.code }), viewId: view.id, controlId: clash.id });
    }
    for (const control of view.dataControls) {
      if (control.parentDataControlId && !view.dataControls.some((c) => c.id === control.parentDataControlId)) {
        add({ kind: 'unknownControl', message: t('check.parentControl', { code: control.code }), viewId: view.id, controlId: control.id });
      }
    }
    for (const button of view.viewButtons) checkButton(button, view.id);
  }
  for (const button of definition.pageButtons) checkButton(button, null);

  function checkButton(button: { id: string; code?: string | null }, viewId: string | null) {
    if (buttonIds.has(button.id) || controlById.has(button.id) || viewById.has(button.id)) {
      add({ kind: 'duplicateId', message: t('check.duplicateControlId', { id: button.id }), viewId, controlId: button.id });
    }
    buttonIds.add(button.id);
    if (!button.code) return;
    const key = button.code.toLowerCase();
    if (RESERVED_BUTTON_CODES.has(key)) add({ kind: 'reservedCode', message: t('check.reservedButtonCode', { code: button.code }), viewId, controlId: button.id });
    else if (buttonCodes.has(key)) add({ kind: 'duplicateCode', message: t('check.duplicateButtonCode', { code: button.code }), viewId, controlId: button.id });
    else buttonCodes.set(key, button.id);
  }

  checkViews(definition, viewById, t, add);
  checkFormulas(definition, all, viewById, controlById, t, add);
  checkLookups(all, t, add, resolveSource, resolveQuery);
  return problems;
}

type Add = (p: Omit<TDesignProblem, 'controlId' | 'viewId'> & { controlId?: string | null; viewId?: string | null }) => void;

/** Parents, nesting and child foreign keys. */
function checkViews(definition: TPageDefinition, viewById: Map<string, TView>, t: Translate, add: Add) {
  const walk = (views: TView[], enclosingDataView: TView | null) => {
    for (const view of views) {
      if (!isContainer(view)) {
        const parentId = view.parentViewControlId;
        if (parentId) {
          const parent = viewById.get(parentId);
          if (!parent || isContainer(parent) || parent.id === view.id) {
            add({ kind: 'viewParent', message: t('check.parentMissing', { view: view.code }), viewId: view.id });
          } else {
            // Follow parents upwards: meeting the view again is a cycle.
            const seen = new Set([view.id]);
            for (let at: TView | undefined = parent; at?.parentViewControlId; at = viewById.get(at.parentViewControlId)) {
              if (seen.has(at.id)) {
                add({ kind: 'viewParent', message: t('check.parentCycle', { view: view.code }), viewId: view.id });
                break;
              }
              seen.add(at.id);
            }
          }
          const key = view.associateForeignKeyCode;
          if (!key) add({ kind: 'childForeignKey', message: t('check.foreignKeyMissing', { view: view.code }), viewId: view.id });
          else if (key !== PARENT_KEY && !view.dataControls.some((c) => c.code === key)) {
            add({ kind: 'childForeignKey', message: t('check.foreignKeyUnknown', { view: view.code, code: key }), viewId: view.id });
          }
        } else if (enclosingDataView) {
          add({ kind: 'childForeignKey', message: t('check.nestedWithoutParent', { view: view.code, parent: enclosingDataView.code }), viewId: view.id });
        }
      }
      walk(view.viewControls ?? [], isContainer(view) ? enclosingDataView : view);
    }
  };
  walk(definition.viewControls, null);
}

/** The formula schema seen from a view: its own controls, the master's, and every view by code. */
function formulaSchemaFor(view: TView | null, all: { view: TView; parent: TView | null }[], viewById: Map<string, TView>): FormulaSchema {
  const kinds = (v: TView) => Object.fromEntries(v.dataControls.map((c) => [c.code, tableFieldTypeOf(c.controlType)]));
  let master: TView | null = view;
  while (master?.parentViewControlId && viewById.has(master.parentViewControlId)) {
    const next = viewById.get(master.parentViewControlId)!;
    if (next === view) break;
    master = next;
  }
  const topLevel = all.find(({ view: v }) => !isContainer(v) && !v.parentViewControlId)?.view ?? null;
  master ??= topLevel;
  const views: Record<string, { isList: boolean; fields: Record<string, TableFieldType> }> = {};
  for (const { view: v } of all) if (!isContainer(v)) views[v.code] = { isList: Boolean(v.parentViewControlId), fields: kinds(v) };
  return { fields: view ? kinds(view) : master ? kinds(master) : {}, masterFields: master ? kinds(master) : {}, views };
}

function checkFormulas(
  definition: TPageDefinition,
  all: { view: TView; parent: TView | null }[],
  viewById: Map<string, TView>,
  controlById: Map<string, { control: TDataControl; view: TView }>,
  t: Translate,
  add: Add,
) {
  const schemaCache = new Map<string, FormulaSchema>();
  const schemaOf = (view: TView | null) => {
    const key = view?.id ?? '';
    if (!schemaCache.has(key)) schemaCache.set(key, formulaSchemaFor(view, all, viewById));
    return schemaCache.get(key)!;
  };
  const byCode = new Map<string, { control: TDataControl; view: TView }>();
  for (const entry of controlById.values()) if (!byCode.has(entry.control.code)) byCode.set(entry.control.code, entry);
  const resolve = (id: string | null | undefined, code: string | null | undefined) =>
    (id ? controlById.get(id) : undefined) ?? (!id && code ? byCode.get(code) : undefined);

  const compile = (source: string, view: TView | null, where: 'where.trigger' | 'where.assignment' | 'where.default' | 'where.join', at: { viewId: string | null; controlId: string | null; linkageId?: string | null }) => {
    const compiled = compileFormula(source, { schema: schemaOf(view) });
    for (const error of compiled.errors) {
      add({ kind: 'formula', message: t('check.formula', { where: t(where), message: error.message }), ...at, start: error.start, end: error.end });
    }
    return compiled;
  };

  // Default values and join-condition values written as formulas (`=…`).
  for (const { view } of all) {
    for (const control of view.dataControls) {
      if (typeof control.defaultValue === 'string' && control.defaultValue.startsWith('=')) {
        compile(control.defaultValue, view, 'where.default', { viewId: view.id, controlId: control.id });
      }
      for (const join of control.extraProperties?.joinConditions ?? []) {
        if (typeof join.value === 'string' && join.value.startsWith('=')) compile(join.value, view, 'where.join', { viewId: view.id, controlId: control.id });
      }
    }
  }

  // Linkages: every formula compiles, every control exists, and assignments do not feed each other in a cycle.
  const keyOf = (view: TView, code: string) => `${view.id}\u0000${code}`;
  const graph: GraphItem[] = [];
  const linkageLabel = new Map<string, string>();
  linkagesOf(definition).forEach((linkage, index) => {
    const linkageId = linkage.id ?? `#${index + 1}`;
    const reads = new Set<string>();
    const writes = new Set<string>();
    const readRefs = (view: TView | null, refs: readonly { view: string | null; code: string }[]) => {
      for (const ref of refs) {
        if (ref.view) {
          const target = [...viewById.values()].find((v) => v.code === ref.view);
          if (target) reads.add(keyOf(target, ref.code));
        } else if (view) {
          const own = view.dataControls.some((c) => c.code === ref.code);
          if (own) reads.add(keyOf(view, ref.code));
          else {
            const master = schemaOf(view).masterFields;
            const masterView = [...viewById.values()].find((v) => !isContainer(v) && !v.parentViewControlId && master && Object.hasOwn(master, ref.code));
            if (masterView) reads.add(keyOf(masterView, ref.code));
          }
        }
      }
    };
    for (const trigger of linkage.triggerConditions) {
      const hit = resolve(trigger.dataControlId, trigger.dataControlCode);
      if ((trigger.dataControlId || trigger.dataControlCode) && !hit) {
        add({ kind: 'unknownControl', message: t('check.unknownLinkControl', { ref: trigger.dataControlId ?? trigger.dataControlCode ?? '' }), linkageId });
      }
      if (hit) reads.add(keyOf(hit.view, hit.control.code));
      if (trigger.triggerFormula?.trim()) {
        const compiled = compile(trigger.triggerFormula, hit?.view ?? null, 'where.trigger', { viewId: hit?.view.id ?? null, controlId: hit?.control.id ?? null, linkageId });
        readRefs(hit?.view ?? null, compiled.references);
      }
    }
    for (const assignment of linkage.assignments) {
      const hit = resolve(assignment.dataControlId, assignment.dataControlCode);
      if (!hit) {
        add({ kind: 'unknownControl', message: t('check.unknownLinkControl', { ref: assignment.dataControlId ?? assignment.dataControlCode ?? '' }), linkageId });
        continue;
      }
      writes.add(keyOf(hit.view, hit.control.code));
      if (assignment.assignmentFormula?.trim()) {
        const compiled = compile(assignment.assignmentFormula, hit.view, 'where.assignment', { viewId: hit.view.id, controlId: hit.control.id, linkageId });
        readRefs(hit.view, compiled.references);
      }
    }
    for (const state of linkage.pageStateControls) {
      const id = state.controlObjectId;
      if (!controlById.has(id) && !viewById.has(id) && !isButtonId(definition, id)) {
        add({ kind: 'unknownControl', message: t('check.unknownStateObject', { ref: state.controlObjectTitle ?? id }), linkageId });
      }
    }
    for (const event of linkage.pageEvents) {
      if (event.bingDataControlId && !controlById.has(event.bingDataControlId)) {
        add({ kind: 'unknownControl', message: t('check.unknownLinkControl', { ref: event.bingDataControlId }), linkageId });
      }
    }
    if (writes.size > 0) {
      graph.push({ id: linkageId, reads: [...reads], writes: [...writes] });
      linkageLabel.set(linkageId, [...writes].map((k) => k.split('\u0000')[1]).join(', '));
    }
  });
  for (const cycle of analyzeDependencies(graph).cycles) {
    const codes = cycle.map((id) => linkageLabel.get(id) ?? id).join(' → ');
    add({ kind: 'linkageCycle', message: t('check.linkageCycle', { codes }), linkageId: cycle[0] });
  }
}

function isButtonId(definition: TPageDefinition, id: string): boolean {
  if (definition.pageButtons.some((b) => b.id === id)) return true;
  return flattenViews(definition).some(({ view }) => view.viewButtons.some((b) => b.id === id));
}

/** A default from a saved query: one that exists, answers the column taken and has the parameters given. */
function checkDefaultQuery(code: string, query: TSourceQueryRef, source: QuerySource | null, t: Translate, add: (p: Omit<TDesignProblem, 'viewId' | 'controlId'>) => void) {
  if (!source) return add({ kind: 'lookupMapping', message: t('check.defaultQueryMissing', { code, method: query.methodCode }) });
  if (!source.fields.has(query.valueColumn.toLowerCase())) add({ kind: 'lookupMapping', message: t('check.defaultQueryColumn', { code, method: query.methodCode, column: query.valueColumn }) });
  for (const p of query.parameters ?? []) {
    if (!source.parameters.has(p.name)) add({ kind: 'lookupMapping', message: t('check.defaultQueryParameter', { code, method: query.methodCode, name: p.name }) });
  }
}

/** Lookup controls: a data source that exists, mappings between existing fields of compatible types. */
function checkLookups(all: { view: TView; parent: TView | null }[], t: Translate, add: Add, resolveSource: SourceViewResolver, resolveQuery: QuerySourceResolver) {
  for (const { view } of all) {
    for (const control of view.dataControls) {
      const extra = control.extraProperties;
      const maps = extra?.mapFields ?? [];
      const at = { viewId: view.id, controlId: control.id };
      const defaultQuery = controlDefaultQuery(control);
      if (defaultQuery) checkDefaultQuery(control.code, defaultQuery, resolveQuery(defaultQuery), t, (p) => add({ ...p, ...at }));
      const query = controlSourceQuery(control);
      if (query) {
        const source = resolveQuery(query);
        if (!source) {
          add({ kind: 'lookupMapping', message: t('check.sourceQueryMissing', { code: control.code, method: query.methodCode }), ...at });
          continue;
        }
        const title = typeof extra?.dataSourceTitle === 'string' && extra.dataSourceTitle ? extra.dataSourceTitle : null;
        for (const column of new Set([query.valueColumn, query.labelColumn || title].filter((c): c is string => Boolean(c)))) {
          if (!source.fields.has(column.toLowerCase())) add({ kind: 'lookupMapping', message: t('check.sourceQueryColumn', { code: control.code, method: query.methodCode, column }), ...at });
        }
        for (const p of query.parameters ?? []) {
          if (!source.parameters.has(p.name)) add({ kind: 'lookupMapping', message: t('check.sourceQueryParameter', { code: control.code, method: query.methodCode, name: p.name }), ...at });
        }
        checkMappings(control, view, source, t, add);
        continue;
      }
      const sourceId = typeof extra?.dataSourceId === 'string' && extra.dataSourceId ? extra.dataSourceId : null;
      if (!sourceId) {
        if (maps.length > 0) add({ kind: 'lookupMapping', message: t('check.lookupNoSource', { code: control.code }), ...at });
        continue;
      }
      if (!LOOKUP_TYPES.has(Number(control.controlType)) && maps.length === 0) continue;
      const source = resolveSource(sourceId);
      if (!source) {
        add({ kind: 'lookupMapping', message: t('check.lookupSource', { code: control.code }), ...at });
        continue;
      }
      checkMappings(control, view, source, t, add);
    }
  }
}

/** A lookup's mappings: from fields of its source to controls of its view, of compatible types. */
function checkMappings(control: TDataControl, view: TView, source: SourceView, t: Translate, add: Add) {
  const at = { viewId: view.id, controlId: control.id };
  for (const map of control.extraProperties?.mapFields ?? []) {
    const from = source.fields.get(map.sourceCode.toLowerCase());
    const target = view.dataControls.find((c) => c.code === map.targetCode);
    if (!from) add({ kind: 'lookupMapping', message: t('check.lookupSourceField', { code: control.code, source: map.sourceCode }), ...at });
    if (!target) add({ kind: 'lookupMapping', message: t('check.lookupTarget', { code: control.code, target: map.targetCode }), ...at });
    if (from && target && !compatibleFieldTypes(from.tableFieldType, tableFieldTypeOf(target.controlType))) {
      add({ kind: 'lookupMapping', message: t('check.lookupType', { code: control.code, source: map.sourceCode, target: map.targetCode }), viewId: view.id, controlId: target.id });
    }
  }
}

/** The fields a lookup can read from a published view: its controls plus the system key columns. */
export function sourceViewOf(view: TView): SourceView {
  const fields = new Map<string, { code: string; tableFieldType: TableFieldType | 'uuid' }>();
  for (const name of ['Id', PARENT_KEY, 'CreatorId', 'OwnerOrganizationUnitId']) fields.set(name.toLowerCase(), { code: name, tableFieldType: 'uuid' });
  for (const c of view.dataControls) if (!isReservedColumnName(c.code)) fields.set(c.code.toLowerCase(), { code: c.code, tableFieldType: tableFieldTypeOf(c.controlType) });
  return { fields };
}

/** The view and control a path into the design (`viewControls.0.dataControls.3.code`) points at. */
function locate(definition: TPageDefinition, path: (string | number)[]): { viewId: string | null; controlId: string | null } {
  let views: TView[] = definition.viewControls;
  let viewId: string | null = null;
  let controlId: string | null = null;
  for (let i = 0; i < path.length; i++) {
    const key = path[i];
    const next = path[i + 1];
    if (key === 'viewControls' && typeof next === 'number') {
      const view = views[next];
      if (!view) break;
      viewId = view.id;
      views = view.viewControls ?? [];
      i++;
    } else if ((key === 'dataControls' || key === 'viewButtons') && typeof next === 'number' && viewId) {
      const view = flattenViews(definition).find((v) => v.view.id === viewId)?.view;
      controlId = (key === 'dataControls' ? view?.dataControls[next]?.id : view?.viewButtons[next]?.id) ?? null;
      break;
    } else if (key === 'pageButtons' && typeof next === 'number') {
      controlId = definition.pageButtons[next]?.id ?? null;
      break;
    }
  }
  return { viewId: typeof viewId === 'string' ? viewId : null, controlId: typeof controlId === 'string' ? controlId : null };
}
