/**
 * Before step 5: the values each business dictionary lets a caller choose, for the controls whose
 * options come from a dictionary (`options.dictionaryCode`). Only dictionaries a row of this save
 * holds a value for are read, each once per save session (an Excel import is one session).
 */
import { controlOptionSource } from '@tessera/core/controls/registry';
import type { Db } from '../../../platform/context.ts';
import { findDictionaryOptions } from '../../dictionaries/index.ts';
import { isBlank, type PageRows, type SaveSession } from './model.ts';

/** Dictionary code → the values that may be newly chosen (enabled items); a code not here is not checked. */
export type DictionaryChoices = ReadonlyMap<string, ReadonlySet<string>>;

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
