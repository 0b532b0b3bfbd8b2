/**
 * Before step 5: what the caller may choose for the controls whose values must come from somewhere
 * — the enabled items of a business dictionary (`options.dictionaryCode`) and the source rows of a
 * lookup (1010) the caller may see (not deleted, inside their data scope on the source page). Only
 * dictionaries a row of this save holds a value for are read, each once per save session (an Excel
 * import is one session); lookup ids are checked in one query per lookup control, and each id once
 * per session (`primeLookupChoices` checks an import's ids before its records are prepared).
 */
import { ControlTypeId, controlOptionSource } from '@tessera/core/controls/registry';
import type { Db } from '../../../platform/context.ts';
import { findDictionaryOptions } from '../../dictionaries/index.ts';
import { LOOKUP_BATCH, valuesOf } from '../labels.ts';
import { lookupSourceOf, visibleLookupTitles, type LookupSource } from '../lookup-source.ts';
import { queryParameters, sourceQueryOf, sourceQueryTitles } from '../source-query.ts';
import type { TSourceQueryRef } from '@tessera/core/page-definition';
import type { RuntimeControl } from '../runtime-page.ts';
import type { ServiceContext } from '../../../platform/context.ts';
import { isBlank, type EntryInput, type PageRows, type PreparedRow, type SaveSession } from './model.ts';

/** Dictionary code → the values that may be newly chosen (enabled items); a code not here is not checked. */
export type DictionaryChoices = ReadonlyMap<string, ReadonlySet<string>>;

export interface Choices {
  dictionaries: DictionaryChoices;
  /** Lookup control id → the values of this save that name a source row the caller may see; a control not here is not checked. */
  lookups: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The choosable values of the dictionaries and lookups the page's rows use. */
export async function loadChoices(db: Db, session: SaveSession, rows: PageRows): Promise<Choices> {
  return { dictionaries: await loadDictionaryChoices(db, session, rows), lookups: await loadLookupChoices(db, session, rows) };
}

/** The choosable values of the dictionaries the page's rows use; an unknown dictionary is left out. */
export async function loadDictionaryChoices(db: Db, session: SaveSession, rows: PageRows): Promise<DictionaryChoices> {
  const cache = session.dictionaryChoices;
  const out = new Map<string, ReadonlySet<string>>();
  for (const view of session.page.order) {
    const viewRows = rows.get(view.id) ?? [];
    if (viewRows.length === 0) continue;
    for (const c of view.controls) {
      const source = controlOptionSource(c.control);
      if (source?.kind !== 'dictionary' || out.has(source.code)) continue;
      if (!viewRows.some((r) => !isBlank(r.record[c.code]))) continue;
      let choosable = cache.get(source.code);
      if (choosable === undefined) {
        choosable = await enabledValues(db, source.code, session.culture);
        cache.set(source.code, choosable);
      }
      if (choosable) out.set(source.code, choosable);
    }
  }
  return out;
}

/** A dictionary that does not exist (publishing keeps used ones from being deleted): nothing to check against. */
async function enabledValues(db: Db, code: string, culture: string): Promise<ReadonlySet<string> | null> {
  const options = await findDictionaryOptions(db, code, culture);
  return options && new Set(options.map((o) => o.value));
}

const sources = new WeakMap<SaveSession, Map<string, Promise<LookupSource | null>>>();
/** A lookup's source, read once per session; null when the design names none (then nothing is checked). */
function sourceOf(db: Db, session: SaveSession, c: RuntimeControl): Promise<LookupSource | null> {
  let bySession = sources.get(session);
  if (!bySession) sources.set(session, (bySession = new Map()));
  let source = bySession.get(c.control.id);
  if (!source) bySession.set(c.control.id, (source = lookupSourceOf(db, c, session.t).catch(() => null)));
  return source;
}

/** Checks `values` of a lookup control that this session has not checked yet (in batches, one query each). */
export async function primeLookupChoices(db: Db, session: SaveSession, c: RuntimeControl, values: Iterable<string>): Promise<LookupSource | null> {
  const source = await sourceOf(db, session, c);
  if (!source) return null;
  let known = session.lookupChoices.get(c.control.id);
  if (!known) session.lookupChoices.set(c.control.id, (known = new Map()));
  const missing = [...new Set([...values].map((v) => v.toLowerCase()))].filter((v) => !known.has(v));
  const actor = { user: session.user, isSystem: session.isSystem, now: () => session.now };
  for (let at = 0; at < missing.length; at += LOOKUP_BATCH) {
    const batch = missing.slice(at, at + LOOKUP_BATCH);
    const visible = await visibleLookupTitles(actor, db, source, batch);
    for (const id of batch) known.set(id, visible.has(id));
  }
  return source;
}

/**
 * The values of lookup controls that name a source row the caller may see. Only values a row
 * chooses anew are checked: a value the stored row already holds stays (its source row may have
 * been deleted or left the caller's scope since).
 */
async function loadLookupChoices(db: Db, session: SaveSession, rows: PageRows): Promise<ReadonlyMap<string, ReadonlySet<string>>> {
  const out = new Map<string, ReadonlySet<string>>();
  for (const view of session.page.order) {
    const viewRows = rows.get(view.id) ?? [];
    for (const c of view.controls) {
      const query = sourceQueryOf(c);
      if (query) {
        const answered = await querySourceChoices(db, session, c, query, viewRows);
        if (answered) out.set(c.control.id, answered);
        continue;
      }
      if (c.controlType !== ControlTypeId.Lookup) continue;
      const chosen = new Set<string>();
      for (const r of viewRows) {
        const held = new Set(valuesOf(r.stored?.[c.code]));
        for (const v of valuesOf(r.record[c.code])) if (!held.has(v)) chosen.add(v);
      }
      if (chosen.size === 0) continue;
      if (!(await primeLookupChoices(db, session, c, chosen))) continue;
      const known = session.lookupChoices.get(c.control.id)!;
      out.set(c.control.id, new Set([...chosen].filter((v) => known.get(v.toLowerCase()))));
    }
  }
  return out;
}

/**
 * Asks the data-source queries about the values a request sends, before the save's transaction
 * (a slow source then holds no transaction, nor the embedded database's one connection): what the
 * session learns here the check inside the transaction does not ask again. Values the save makes
 * itself (linkages, defaults) are still asked inside.
 */
export async function primeQueryChoices(session: SaveSession, entries: Iterable<EntryInput>): Promise<void> {
  for (const entry of entries) {
    for (const c of entry.view.controls) {
      const query = sourceQueryOf(c);
      if (!query) continue;
      const rows = entry.rows.map((record) => ({ record, values: valuesOf(record[c.code]) }));
      // A failure is kept: the check inside the transaction answers with it at once, but only if a
      // value the record did not hold before needs asking (the request also carries unchanged ones).
      await askQuery(session.context, session, c, query, rows).catch((failure: unknown) => (entryOf(session, c).failure = failure));
    }
  }
}

/** Asks the query about the values it has not been asked yet, rows with the same parameters together. */
function entryOf(session: SaveSession, c: RuntimeControl) {
  let entry = session.queryChoices.get(c.control.id);
  if (!entry) session.queryChoices.set(c.control.id, (entry = { answers: new Map(), failure: null }));
  return entry;
}

/** Rows asking with the same parameters share their answers: the key of a row's parameters. */
const parametersKey = (ctx: ServiceContext, session: SaveSession, query: TSourceQueryRef, record: Record<string, unknown>) => JSON.stringify(queryParameters(ctx, query, record, session.offsetMinutes));

async function askQuery(ctx: ServiceContext, session: SaveSession, c: RuntimeControl, query: TSourceQueryRef, rows: { record: Record<string, unknown>; values: string[] }[]): Promise<void> {
  const entry = entryOf(session, c);
  const known = entry.answers;
  const groups = new Map<string, { record: Record<string, unknown>; values: Set<string> }>();
  for (const { record, values } of rows) {
    const parameters = parametersKey(ctx, session, query, record);
    for (const v of values) {
      if (known.has(`${parameters}\u0000${v}`)) continue;
      let group = groups.get(parameters);
      if (!group) groups.set(parameters, (group = { record, values: new Set() }));
      group.values.add(v);
    }
  }
  if (groups.size > 0 && entry.failure) throw entry.failure;
  for (const [parameters, group] of groups) {
    const titles = await sourceQueryTitles(ctx, c, query, [...group.values], group.record, session.offsetMinutes);
    for (const v of group.values) known.set(`${parameters}\u0000${v}`, titles.has(v));
  }
}

/**
 * The values newly chosen for a control fed by a data-source query that the query answers, under
 * the parameters of the row choosing them. Values not asked before the transaction are asked here,
 * inside it (`db`: the source's settings are read there too — the embedded database has one
 * connection); the source's statement timeout bounds how long.
 */
async function querySourceChoices(db: Db, session: SaveSession, c: RuntimeControl, query: TSourceQueryRef, rows: readonly PreparedRow[]): Promise<ReadonlySet<string> | null> {
  const chosen = rows.map((r) => {
    const held = new Set(valuesOf(r.stored?.[c.code]));
    return { record: r.record, values: valuesOf(r.record[c.code]).filter((v) => !held.has(v)) };
  });
  if (!chosen.some((r) => r.values.length > 0)) return null;
  const ctx = { ...session.context, db };
  await askQuery(ctx, session, c, query, chosen);
  const known = entryOf(session, c).answers;
  const answered = new Set<string>();
  for (const { record, values } of chosen) {
    const parameters = parametersKey(ctx, session, query, record);
    for (const v of values) if (known.get(`${parameters}\u0000${v}`)) answered.add(v);
  }
  return answered;
}
