/**
 * The labels a person reads instead of stored values: a control with options (a static list or a
 * business dictionary, `options.dictionaryCode`) stores the option's value — a dictionary item's
 * code — and shows its label in the caller's language; a lookup (1010) stores the id of a source
 * row and shows that row's title. The list answer (`labels`), the Excel export and the record
 * history all read them here.
 *
 * One resolver serves one request: every dictionary it meets is read once (all of them in one
 * query, or from the node's 5 s label cache), and each `load` reads the titles of a batch of rows' lookup ids in one query per lookup
 * column — never a query per row. A lookup id the caller may not see (outside their data scope on
 * the source page, or deleted) keeps showing the id.
 */
import { ControlTypeId, controlOptionSource } from '@tessera/core/controls/registry';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { localize } from '../../platform/localized-text.ts';
import { dictionaryLabelsByCodes } from '../dictionaries/index.ts';
import type { Translate } from './business-data.messages.ts';
import { lookupSourceOf, visibleLookupTitles, type LookupSource } from './lookup-source.ts';
import { queryParameters, sourceQueryOf, sourceQueryTitles } from './source-query.ts';
import type { TSourceQueryRef } from '@tessera/core/page-definition';
import type { TPageDataResult } from '@tessera/core/contracts/business-data';
import type { PageAccess, RuntimeControl, RuntimePage } from './runtime-page.ts';

type Rec = Record<string, unknown>;

/** Ids read per query (far below PostgreSQL's bound-parameter limit). */
export const LOOKUP_BATCH = 1000;

/** Whether a control shows labels instead of its stored values. */
export function showsLabels(c: RuntimeControl): boolean {
  return c.controlType === ControlTypeId.Lookup || controlOptionSource(c.control) !== null;
}

/** The values of a record value (one, or each of a list), as text. */
export function valuesOf(value: unknown): string[] {
  if (value === null || value === undefined || value === '') return [];
  if (Array.isArray(value)) return value.filter((v) => v !== null && v !== undefined && v !== '').map(String);
  return [String(value)];
}

/** A static option list's value → label (an option without a label shows its value). */
export function listLabels(c: RuntimeControl): Map<string, string> {
  const out = new Map<string, string>();
  for (const o of Array.isArray(c.control.options) ? c.control.options : []) {
    if (o && typeof o === 'object' && 'value' in o) {
      const label = (o as { label?: unknown }).label;
      const value = String((o as { value: unknown }).value);
      out.set(value, typeof label === 'string' && label ? label : value);
    } else if (typeof o === 'string' || typeof o === 'number') out.set(String(o), String(o));
  }
  return out;
}

/**
 * A lookup's source for labels, kept 5 s per published control on this node (a list would
 * otherwise re-check the source page's published version on every request); the save's check of
 * lookup values reads it fresh.
 */
const SOURCE_TTL_MS = 5_000;
const recentSources = new WeakMap<RuntimeControl, { source: Promise<LookupSource | null>; at: number }>();
function recentSourceOf(db: Db, c: RuntimeControl, t: Translate): Promise<LookupSource | null> {
  const hit = recentSources.get(c);
  if (hit && Date.now() - hit.at < SOURCE_TTL_MS) return hit.source;
  const source = lookupSourceOf(db, c, t).catch(() => null);
  recentSources.set(c, { source, at: Date.now() });
  return source;
}

export class ValueLabels {
  /** Dictionary code → value → label in the caller's language (null: no such dictionary). */
  private readonly dictionaries = new Map<string, Map<string, string> | null>();
  private readonly lists = new WeakMap<RuntimeControl, Map<string, string>>();
  private readonly sources = new Map<string, Promise<LookupSource | null>>();
  /** Lookup control id → lower-case source row id → title (null: not a row the caller may see); a data-source query's values as stored. */
  private readonly titles = new Map<string, Map<string, string | null>>();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly db: Db,
    private readonly t: Translate,
  ) {}

  /** Reads what `text` needs for these records' values of these controls (dictionaries once, lookups per batch). */
  async load(controls: readonly RuntimeControl[], records: readonly Rec[]): Promise<void> {
    const labelled = controls.filter(showsLabels);
    if (labelled.length === 0 || records.length === 0) return;
    const codes = new Set<string>();
    for (const c of labelled) {
      const source = controlOptionSource(c.control);
      if (source?.kind === 'dictionary' && !this.dictionaries.has(source.code)) codes.add(source.code);
    }
    if (codes.size) {
      const found = await dictionaryLabelsByCodes(this.db, [...codes]);
      for (const code of codes) {
        const items = found.get(code);
        this.dictionaries.set(code, items ? new Map(items.map((i) => [i.value, localize(i.labels, this.ctx.culture) || i.value])) : null);
      }
    }
    for (const c of labelled) {
      const query = sourceQueryOf(c);
      if (query) await this.loadQueryTitles(c, query, records);
      if (query || c.controlType !== ControlTypeId.Lookup) continue;
      const known = this.titlesOf(c);
      // An export labels a million rows batch by batch: the titles of earlier batches are let go.
      if (known.size > 50_000) known.clear();
      const missing = new Set<string>();
      for (const r of records) for (const v of valuesOf(r[c.code])) if (!known.has(v.toLowerCase())) missing.add(v.toLowerCase());
      if (missing.size === 0) continue;
      const source = await this.sourceOf(c);
      const ids = [...missing];
      for (let at = 0; at < ids.length; at += LOOKUP_BATCH) {
        const batch = ids.slice(at, at + LOOKUP_BATCH);
        const found = source ? await visibleLookupTitles(this.ctx, this.db, source, batch) : new Map<string, string>();
        for (const id of batch) known.set(id, found.get(id) ?? null);
      }
    }
  }

  /**
   * Titles of the values of a control fed by a data-source query, asked with each record's
   * parameters (records with the same ones together). A source that is down or slow leaves the
   * values showing as they are stored: a list never fails for it.
   */
  private async loadQueryTitles(c: RuntimeControl, query: TSourceQueryRef, records: readonly Rec[]): Promise<void> {
    const known = this.titlesOf(c);
    if (known.size > 50_000) known.clear();
    const groups = new Map<string, { record: Rec; values: Set<string> }>();
    for (const r of records) {
      const missing = valuesOf(r[c.code]).filter((v) => !known.has(v));
      if (missing.length === 0) continue;
      const key = JSON.stringify(queryParameters(this.ctx, query, r));
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { record: r, values: new Set() }));
      for (const v of missing) group.values.add(v);
    }
    for (const { record, values } of groups.values()) {
      const found = await sourceQueryTitles(this.ctx, c, query, [...values], record).catch(() => new Map<string, string>());
      for (const v of values) known.set(v, found.get(v) ?? null);
    }
  }

  /** The label of one value of a labelled control (the value itself when it has none). */
  label(c: RuntimeControl, value: string): string {
    if (sourceQueryOf(c)) return this.titlesOf(c).get(value) || value;
    if (c.controlType === ControlTypeId.Lookup) return this.titlesOf(c).get(value.toLowerCase()) || value;
    const source = controlOptionSource(c.control);
    if (source?.kind === 'dictionary') return this.dictionaries.get(source.code)?.get(value) ?? value;
    let list = this.lists.get(c);
    if (!list) this.lists.set(c, (list = listLabels(c)));
    return list.get(value) ?? value;
  }

  /** What a person reads for a value of a labelled control (list values joined by ", "); null for any other control. */
  text(c: RuntimeControl, value: unknown): string | null {
    if (!showsLabels(c)) return null;
    return valuesOf(value).map((v) => this.label(c, v)).join(', ');
  }

  /** Value → label of every value the records hold, per labelled control code (the list answer's `labels`). */
  labelsOf(controls: readonly RuntimeControl[], records: readonly Rec[]): Record<string, Record<string, string>> {
    const out: Record<string, Record<string, string>> = {};
    for (const c of controls) {
      if (!showsLabels(c)) continue;
      const map: Record<string, string> = Object.create(null);
      for (const r of records) for (const v of valuesOf(r[c.code])) map[v] ??= this.label(c, v);
      out[c.code] = map;
    }
    return out;
  }

  private titlesOf(c: RuntimeControl) {
    let map = this.titles.get(c.control.id);
    if (!map) this.titles.set(c.control.id, (map = new Map()));
    return map;
  }

  private sourceOf(c: RuntimeControl) {
    let source = this.sources.get(c.control.id);
    if (!source) this.sources.set(c.control.id, (source = recentSourceOf(this.db, c, this.t)));
    return source;
  }
}

/**
 * A page answer's display texts (spec §3 `businessDataList`) with labels: dictionary, option and
 * lookup fields read as people name them, like the list, the export and the history. Changes `data`.
 */
export async function labelPageDisplay(
  ctx: ServiceContext,
  db: Db,
  t: Translate,
  page: RuntimePage,
  access: PageAccess,
  data: TPageDataResult,
): Promise<TPageDataResult> {
  const labels = new ValueLabels(ctx, db, t);
  for (const entry of data.viewDataList) {
    const view = page.views.get(entry.viewId);
    const labelled = view ? access.visibleControls(view).filter(showsLabels) : [];
    if (!labelled.length || !entry.dataList.length) continue;
    await labels.load(labelled, entry.dataList);
    entry.businessDataList.forEach((display, i) => {
      for (const c of labelled) display[c.code] = labels.text(c, entry.dataList[i]![c.code]) ?? display[c.code];
    });
  }
  return data;
}
