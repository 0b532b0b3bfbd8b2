/**
 * The Excel import reads what the export writes: a cell of a field that shows labels may hold the
 * label or the stored value, and the stored value is what is saved.
 *   options / dictionary   the value (item code) itself, else a label in the caller's language,
 *                          else a label in any language the item has (case-insensitive); a label two
 *                          items share is left as it is (and refused as not an option)
 *   list controls          each comma-separated piece the same way
 *   lookup                 a source row id, else the title of exactly one source row the caller
 *                          may see
 * Whatever matches nothing is left as it is, so validation refuses it naming the row and column.
 * Everything is read up front, in a few queries for the whole file: the dictionaries once, lookup
 * titles and ids in batches (the ids checked here are the ones the save's validation then uses).
 */
import { ControlTypeId, controlOptionSource } from '@tessera/core/controls/registry';
import type { Db } from '../../platform/context.ts';
import { localize } from '../../platform/localized-text.ts';
import { findDictionaryItemsByCodes, type DictionaryItemLabels } from '../dictionaries/index.ts';
import { LOOKUP_BATCH, showsLabels } from './labels.ts';
import { visibleLookupIdsByTitle } from './lookup-source.ts';
import { LIST_TYPES } from './record-values.ts';
import type { RuntimeControl } from './runtime-page.ts';
import { primeLookupChoices, UUID, type SaveSession } from './save/index.ts';

type Rec = Record<string, unknown>;
/** Text as read → stored value (undefined: no match). */
type Reader = (text: string) => string | undefined;

const norm = (s: string) => s.trim().toLowerCase();

/** A reader over values and their labels: values first, then `preferred` labels, then `other` labels; ambiguous labels read as nothing. */
function readerOf(values: readonly string[], preferred: [label: string, value: string][], other: [label: string, value: string][]): Reader {
  const exact = new Set(values);
  const tiers = [preferred, other].map((pairs) => {
    const map = new Map<string, string | null>();
    for (const [label, value] of pairs) {
      const key = norm(label);
      if (!key) continue;
      const seen = map.get(key);
      map.set(key, seen === undefined || seen === value ? value : null);
    }
    return map;
  });
  return (text) => {
    if (exact.has(text)) return text;
    for (const tier of tiers) {
      const found = tier.get(norm(text));
      if (found !== undefined) return found ?? undefined;
    }
    return undefined;
  };
}

const cellText = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : null);

/** Replaces labels by stored values in the cells of labelled fields (records as read from the sheets, changed in place). */
export async function readLabelledCells(db: Db, session: SaveSession, columns: { control: RuntimeControl; records: Rec[] }[]): Promise<void> {
  const labelled = columns.filter((col) => showsLabels(col.control) && col.records.length > 0);
  const codes = labelled.flatMap(({ control }) => {
    const source = controlOptionSource(control.control);
    return source?.kind === 'dictionary' ? [source.code] : [];
  });
  const dictionaries = codes.length ? await findDictionaryItemsByCodes(db, codes) : new Map<string, DictionaryItemLabels[] | null>();
  for (const { control, records } of labelled) {
    if (control.controlType === ControlTypeId.Lookup) {
      await readLookupCells(db, session, control, records);
      continue;
    }
    const source = controlOptionSource(control.control)!;
    // A data-source query's cells hold its values; the save checks them against the query.
    if (source.kind === 'query') continue;
    let read: Reader;
    if (source.kind === 'dictionary') {
      const items = dictionaries.get(source.code);
      if (!items) continue;
      read = readerOf(
        items.map((i) => i.value),
        items.map((i) => [localize(i.labels, session.culture), i.value]),
        items.flatMap((i) => Object.values(i.labels).map((label) => [label, i.value] as [string, string])),
      );
    } else {
      const pairs: [string, string][] = [];
      for (const o of Array.isArray(control.control.options) ? control.control.options : []) {
        if (o && typeof o === 'object' && 'value' in o) {
          const label = (o as { label?: unknown }).label;
          if (typeof label === 'string') pairs.push([label, String((o as { value: unknown }).value)]);
        }
      }
      read = readerOf([...source.values], pairs, []);
    }
    const isList = LIST_TYPES.has(control.controlType);
    for (const r of records) {
      const text = cellText(r[control.code]);
      if (!text) continue;
      if (isList && !text.startsWith('[')) {
        r[control.code] = text.split(/[,，]/).map((piece) => piece.trim()).filter(Boolean).map((piece) => read(piece) ?? piece);
      } else if (!isList) r[control.code] = read(text) ?? text;
    }
  }
}

/** Lookup cells: titles become ids (one visible row only); every id is then checked in batches for the save's validation. */
async function readLookupCells(db: Db, session: SaveSession, control: RuntimeControl, records: Rec[]): Promise<void> {
  const code = control.code;
  const source = await primeLookupChoices(db, session, control, []);
  if (!source) return;
  const titles = new Set<string>();
  for (const r of records) {
    const text = cellText(r[code]);
    if (text && !UUID.test(text)) titles.add(text);
  }
  const list = [...titles];
  const idsOf = new Map<string, string[]>();
  const actor = { user: session.user, isSystem: session.isSystem, now: () => session.now };
  for (let at = 0; at < list.length; at += LOOKUP_BATCH) {
    for (const [title, ids] of await visibleLookupIdsByTitle(actor, db, source, list.slice(at, at + LOOKUP_BATCH))) idsOf.set(title, ids);
  }
  const ids: string[] = [];
  for (const r of records) {
    const text = cellText(r[code]);
    if (!text) continue;
    const found = idsOf.get(text);
    if (found?.length === 1) r[code] = found[0];
    if (typeof r[code] === 'string' && UUID.test(r[code] as string)) ids.push(r[code] as string);
  }
  await primeLookupChoices(db, session, control, ids);
}
