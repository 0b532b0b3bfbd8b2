import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors.ts';
import { savePipelineFixture } from '../../../../test/business-data-fixtures.ts';
import { storedRecordsOf } from './load.ts';
import type { StoredPage } from './model.ts';
import { entriesOf, masterOf, parseRows } from './parse.ts';

const thrown = (f: () => unknown): AppError => {
  try {
    f();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('nothing thrown');
};
const members = (e: AppError) => (e.options.validationErrors ?? []).flatMap((v) => v.members);

describe('entriesOf', () => {
  it('finds views by id or code and refuses unknown or repeated ones, all at once', () => {
    const { page, session, master, lines } = savePipelineFixture();
    const entries = entriesOf(page, [{ viewId: master.id, dataList: [{}] }, { viewId: 'Lines', dataList: [] }], session.t);
    expect([...entries.keys()]).toEqual([master.id, lines.id]);
    expect(entries.get(lines.id)!.entryIndex).toBe(1);
    const error = thrown(() => entriesOf(page, [{ viewId: 'Nope', dataList: [] }, { viewId: master.id, dataList: [] }, { viewId: 'Order', dataList: [] }], session.t));
    expect(error.statusCode).toBe(400);
    expect(members(error)).toEqual(['viewDataList.0.viewId', 'viewDataList.2.viewId']);
  });
});

describe('masterOf', () => {
  it('needs exactly one master row with a GUID or no id', () => {
    const { page, session, master } = savePipelineFixture();
    const entry = (rows: object[]) => new Map([[master.id, { view: master, entryIndex: 0, rows: rows as Record<string, unknown>[] }]]);
    expect(thrown(() => masterOf(page, new Map(), session.t)).message).toBe(session.t('save.masterMissing', { view: 'Order' }));
    const two = thrown(() => masterOf(page, entry([{}, {}]), session.t));
    expect([two.message, members(two)]).toEqual([session.t('save.oneMaster', { view: 'Order' }), ['viewDataList']]);
    expect(members(thrown(() => masterOf(page, entry([{ Id: 'x' }]), session.t)))).toEqual(['viewDataList.0.dataList.0.Id']);
    const id = randomUUID();
    expect(masterOf(page, entry([{ Id: id.toUpperCase() }]), session.t).id).toBe(id);
    expect(masterOf(page, entry([{}]), session.t, () => 'new-id')).toMatchObject({ id: 'new-id', member: 'viewDataList.0.dataList.0' });
  });
});

describe('parseRows', () => {
  const none = (page: ReturnType<typeof savePipelineFixture>['page']): StoredPage => ({ isNew: true, rows: new Map(), records: storedRecordsOf(page, new Map()) });

  it('starts a new record from its defaults and applies what the caller may set', () => {
    const { page, session, master, lines } = savePipelineFixture({ holds: (code) => !code.endsWith('.Qty.Edit') });
    const masterId = randomUUID();
    const lineId = randomUUID();
    const entries = entriesOf(page, [
      { viewId: master.id, dataList: [{ Id: masterId, Name: 'Box', Qty: '7', Total: '99', DocNo: 'R-9' }] },
      { viewId: lines.id, dataList: [{ Id: lineId, Product: 'P', Amount: '1.5', isLink: true }] },
    ], session.t);
    const { rows, errors } = parseRows(session, entries, masterOf(page, entries, session.t), none(page));
    expect(errors).toEqual([]);
    const [order] = rows.get(master.id)!;
    // Qty may not be edited, Total is computed: both keep their defaults.
    expect(order.record).toMatchObject({ Id: masterId, Name: 'Box', Qty: 0, Total: 0, DocNo: 'R-9', ParentViewDataId: null, DataStatus: 0 });
    expect(order.stored).toBeNull();
    const [line] = rows.get(lines.id)!;
    expect(line.record).toMatchObject({ Id: lineId, ParentViewDataId: masterId, Product: 'P', Amount: 1.5, DataStatus: 2, isLink: true });
    expect(line.member).toBe('viewDataList.1.dataList.0');
  });

  it('collects bad, repeated and foreign child ids and unparsable values instead of throwing', () => {
    const { page, session, master, lines } = savePipelineFixture();
    const masterId = randomUUID();
    const twice = randomUUID();
    const entries = entriesOf(page, [
      { viewId: master.id, dataList: [{ Id: masterId, Qty: 'many' }] },
      { viewId: lines.id, dataList: [{ Id: 'bad' }, { Id: twice }, { Id: twice }, { Id: masterId }] },
    ], session.t);
    const { rows, errors } = parseRows(session, entries, masterOf(page, entries, session.t), none(page));
    expect(errors.map((e) => e.members[0])).toEqual(['viewDataList.0.dataList.0.Qty', 'viewDataList.1.dataList.0.Id', 'viewDataList.1.dataList.2.Id', 'viewDataList.1.dataList.3.Id']);
    expect(rows.get(lines.id)!.map((r) => r.record.Id)).toEqual([twice]);
  });

  it('keeps a stored document number and the stored rows of a view that was not submitted', () => {
    const { page, session, master, lines } = savePipelineFixture();
    const masterId = randomUUID();
    const lineId = randomUUID();
    const at = new Date('2025-01-01T00:00:00Z');
    const tableRows = new Map([
      [master.id, [{ Id: masterId, ParentViewDataId: null, DataStatus: 0, ConcurrencyStamp: 's', CreationTime: at, Name: 'Old', Qty: '1', Total: '2.00', DocNo: 'R-1' }]],
      [lines.id, [{ Id: lineId, ParentViewDataId: masterId, DataStatus: 0, ConcurrencyStamp: 's', CreationTime: at, Product: 'P', Amount: '2.00' }]],
    ]);
    const stored: StoredPage = { isNew: false, rows: tableRows, records: storedRecordsOf(page, tableRows) };
    const entries = entriesOf(page, [{ viewId: master.id, dataList: [{ Id: masterId, Name: 'New', DocNo: 'R-2' }] }], session.t);
    const { rows, errors } = parseRows(session, entries, masterOf(page, entries, session.t), stored);
    expect(errors).toEqual([]);
    expect(rows.get(master.id)![0].record).toMatchObject({ Name: 'New', DocNo: 'R-1', Qty: 1 });
    expect(rows.get(lines.id)!.map((r) => [r.record.Product, r.member, r.stored !== null])).toEqual([['P', `rows.${lineId}`, true]]);
  });
});
