/**
 * Step 4, linkages: the page's assignment linkages are recomputed on the server over the whole page
 * (`recomputeLinkages` of core); values the browser computed are overwritten. Rows a linkage
 * creates carry DataStatus 2 (spec §4) and are replaced when it fires again.
 */
import { personDisplayName } from '@tessera/core/helpers/person-name';
import { uuidv7 } from '../../../platform/ids.ts';
import { recomputeLinkages } from '@tessera/core/linkage/index';
import type { TBusinessRecord } from '@tessera/core/page-definition';
import type { Db } from '../../../platform/context.ts';
import type { Culture } from '../../../platform/messages.ts';
import { findDictionaryOptions } from '../../dictionaries/index.ts';
import type { PageRows, Rec, SaveSession, StoredPage } from './model.ts';
import { newRowDefaults } from './parse.ts';

/** value → label of a dictionary, for DICT(code, value) in formulas. */
export type DictionaryLabels = (code: string) => Promise<Map<string, string>>;

/** Labels in the caller's language (disabled items included: a stored value keeps its label); an unknown dictionary: none. */
export function dictionaryLabelsOn(db: Db, culture: Culture): DictionaryLabels {
  return async (code) => new Map((await findDictionaryOptions(db, code, culture, { includeDisabled: true }))?.map((o) => [o.value, o.label]));
}

/**
 * The page's rows after its linkages. DICT labels come from `labelsOf`: the formula resolver is
 * synchronous, so the dictionaries a recompute asks for are loaded and the recompute runs again
 * (pages whose formulas never call DICT pay nothing).
 */
export async function applyLinkages(session: SaveSession, rows: PageRows, stored: StoredPage, labelsOf: DictionaryLabels, newId: () => string = uuidv7): Promise<PageRows> {
  const { page, user } = session;
  const state = { viewDataList: page.order.map((v) => ({ viewId: v.id, dataList: (rows.get(v.id) ?? []).map((p) => p.record as TBusinessRecord) })) };
  const dictionaries = new Map<string, Map<string, string>>();
  const asked = new Set<string>();
  const linkageContext = {
    now: session.now,
    offsetMinutes: session.offsetMinutes,
    locale: (session.culture === 'en-US' ? 'en-US' : 'zh-CN') as 'en-US' | 'zh-CN',
    user: user ? { id: user.id, name: personDisplayName(user, session.culture), orgUnitId: user.organizationUnitId, orgUnitName: user.organizationUnitName } : null,
    newId,
    dictionary: (code: string, value: string) => {
      const labels = dictionaries.get(code);
      if (!labels) asked.add(code);
      return labels?.get(value) ?? null;
    },
  };
  let recomputed = recomputeLinkages(page.definition, state, linkageContext);
  // A code computed from another DICT result can need one more round; a few rounds at most.
  for (let round = 0; round < 3 && asked.size; round++) {
    for (const code of asked) dictionaries.set(code, await labelsOf(code));
    asked.clear();
    recomputed = recomputeLinkages(page.definition, state, linkageContext);
  }
  return rowsAfterLinkages(session, rows, recomputed.state.viewDataList, stored);
}

/**
 * Maps the recomputed records back onto the rows: a known row keeps what is stored and its error
 * path; a row the linkage created gets the spec §4 defaults for the controls it did not assign.
 */
export function rowsAfterLinkages(session: SaveSession, before: PageRows, recomputed: { viewId: string; dataList: Rec[] }[], stored: StoredPage): PageRows {
  const out: PageRows = new Map();
  for (const entry of recomputed) {
    const view = session.page.views.get(entry.viewId);
    if (!view) continue;
    const known = new Map((before.get(view.id) ?? []).map((p) => [String(p.record.Id), p]));
    out.set(
      view.id,
      entry.dataList.map((record) => {
        const row = known.get(String(record.Id));
        if (row) return { ...row, record };
        const storedRow = stored.records.get(view.id)?.get(String(record.Id)) ?? null;
        const defaults = newRowDefaults(session, view, String(record.ParentViewDataId ?? ''), String(record.Id));
        return { record: { ...defaults, ...record, DataStatus: 2, isLink: true }, stored: storedRow, member: `rows.${String(record.Id)}` };
      }),
    );
  }
  return out;
}
