import { recomputeLinkages, runLinkages as runCoreLinkages, type LinkageContext, type LinkageEffect } from '@tessera/core/linkage/index';
import { flattenViews, linkagesOf, type TPageData, type TPageDefinition } from '@tessera/core/page-definition';
import type { PageState } from './renderer-context.ts';

// Bridges the renderer to the core linkage engine (packages/core/src/linkage): field changes run
// the linkages that depend on the field; added or removed rows recompute the assignments that read
// their view; page-state effects (spec §4 type 2) are kept as the hidden / read-only sets.

/** What changed: a field (`codes`), or rows of a view added / copied / removed (`codes` null). */
export interface LinkageChange {
  viewId: string;
  recordId: string;
  codes: string[] | null;
}

export interface LinkageRun {
  data: TPageData;
  pageState: PageState;
  errors: { linkageId: string; message: string }[];
}

function applyStates(state: PageState, effects: LinkageEffect[]): PageState {
  let hidden: Set<string> | null = null;
  let readOnly: Set<string> | null = null;
  for (const e of effects) {
    if (e.type !== 'controlState') continue;
    hidden ??= new Set(state.hidden);
    readOnly ??= new Set(state.readOnly);
    if (e.isDisplayed) hidden.delete(e.controlObjectId);
    else hidden.add(e.controlObjectId);
    if (e.isEdit) readOnly.delete(e.controlObjectId);
    else readOnly.add(e.controlObjectId);
  }
  return hidden || readOnly ? { hidden: hidden ?? state.hidden, readOnly: readOnly ?? state.readOnly } : state;
}

const errorsOf = (effects: LinkageEffect[]) =>
  effects.flatMap((e) => (e.type === 'setValue' && e.error ? [{ linkageId: e.linkageId, message: `${e.code}: ${e.error}` }] : []));

export function runLinkages(definition: TPageDefinition, data: TPageData, change: LinkageChange | null, state: PageState, ctx: LinkageContext): LinkageRun {
  if (!linkagesOf(definition).length) return { data, pageState: state, errors: [] };
  if (change === null) return initialRun(definition, data, state, ctx);
  if (change.codes === null) {
    // Rows came or went: every assignment reading this view's controls runs again over its rows.
    const view = findView(definition, change.viewId);
    const codes = view?.dataControls.map((c) => ({ viewId: change.viewId, code: c.code })) ?? [];
    const result = recomputeLinkages(definition, data, ctx, codes);
    return { data: result.state, pageState: state, errors: errorsOf(result.effects) };
  }
  let current = data;
  let pageState = state;
  const errors: LinkageRun['errors'] = [];
  for (const code of change.codes) {
    const result = runCoreLinkages(definition, current, { viewId: change.viewId, rowId: change.recordId, code }, ctx);
    current = result.state;
    pageState = applyStates(pageState, result.effects);
    errors.push(...errorsOf(result.effects));
  }
  return { data: current, pageState, errors };
}

/**
 * A page opens: page-state linkages are evaluated against the loaded values (each fires through
 * its trigger controls), so a control hidden by the current data starts hidden.
 */
function initialRun(definition: TPageDefinition, data: TPageData, state: PageState, ctx: LinkageContext): LinkageRun {
  let pageState = state;
  const seen = new Set<string>();
  for (const linkage of definition.dataLinkages) {
    if (Number(linkage.dataLinkType) !== 2) continue;
    for (const trigger of linkage.triggerConditions) {
      const located = locateControl(definition, trigger.dataControlId, trigger.dataControlCode);
      if (!located || seen.has(located.key)) continue;
      seen.add(located.key);
      const rows = data.viewDataList.find((v) => v.viewId === located.viewId)?.dataList ?? [];
      for (const row of rows.slice(0, 1)) {
        const result = runCoreLinkages(definition, data, { viewId: located.viewId, rowId: row.Id, code: located.code }, ctx);
        pageState = applyStates(pageState, result.effects.filter((e) => e.type === 'controlState'));
      }
    }
  }
  return { data, pageState, errors: [] };
}

function findView(definition: TPageDefinition, id: string) {
  return flattenViews(definition).find(({ view }) => view.id === id)?.view;
}

function locateControl(definition: TPageDefinition, id: string | null | undefined, code: string | null | undefined) {
  for (const { view } of flattenViews(definition)) {
    const c = view.dataControls.find((x) => (id ? x.id === id : x.code === code));
    if (c) return { viewId: view.id, code: c.code, key: `${view.id}.${c.code}` };
  }
  return undefined;
}
