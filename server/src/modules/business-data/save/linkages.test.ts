import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { savePipelineFixture } from '../../../../test/business-data-fixtures.ts';
import { rowsAfterLinkages } from './linkages.ts';
import { storedRecordsOf } from './load.ts';
import type { PageRows, StoredPage } from './model.ts';

describe('rowsAfterLinkages', () => {
  it('keeps known rows with their error paths and gives rows a linkage created the defaults and DataStatus 2', () => {
    const { page, session, master, lines } = savePipelineFixture();
    const masterId = randomUUID();
    const manual = randomUUID();
    const created = randomUUID();
    const before: PageRows = new Map([
      [master.id, [{ record: { Id: masterId, Name: 'Box' }, stored: null, member: 'm' }]],
      [lines.id, [{ record: { Id: manual, ParentViewDataId: masterId, Product: 'P' }, stored: null, member: 'l0' }]],
    ]);
    const stored: StoredPage = { isNew: true, rows: new Map(), records: storedRecordsOf(page, new Map()) };
    const after = rowsAfterLinkages(session, before, [
      { viewId: master.id, dataList: [{ Id: masterId, Name: 'Box', Total: 3 }] },
      { viewId: lines.id, dataList: [{ Id: manual, ParentViewDataId: masterId, Product: 'P' }, { Id: created, ParentViewDataId: masterId, Product: 'Auto' }] },
      { viewId: 'not-a-view', dataList: [] },
    ], stored);
    expect([...after.keys()]).toEqual([master.id, lines.id]);
    expect(after.get(master.id)).toEqual([{ record: { Id: masterId, Name: 'Box', Total: 3 }, stored: null, member: 'm' }]);
    const [known, added] = after.get(lines.id)!;
    expect(known.member).toBe('l0');
    expect(added).toMatchObject({ stored: null, member: `rows.${created}`, record: { Id: created, ParentViewDataId: masterId, Product: 'Auto', Amount: 0, DataStatus: 2, isLink: true } });
  });
});
