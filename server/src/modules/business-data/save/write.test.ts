import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { savePipelineFixture } from '../../../../test/business-data-fixtures.ts';
import { answerOf, creationOrder } from './answer.ts';
import { authorOf, deletionHistory, saveHistory } from './history.ts';
import { storedRecordsOf } from './load.ts';
import type { PageRows, StoredPage } from './model.ts';
import { PageAccess } from '../runtime-page.ts';
import { planWrites } from './write.ts';

const at = new Date('2025-01-01T00:00:00Z');
const now = new Date('2025-03-04T05:06:07Z');

function storedOrder() {
  const f = savePipelineFixture();
  const masterId = randomUUID();
  const [keep, change, drop] = [randomUUID(), randomUUID(), randomUUID()];
  const line = (Id: string, Product: string) => ({ Id, ParentViewDataId: masterId, DataStatus: 0, ConcurrencyStamp: 's', CreationTime: at, Product, Amount: '1.00' });
  const rows = new Map([
    [f.master.id, [{ Id: masterId, ParentViewDataId: null, DataStatus: 0, ConcurrencyStamp: 's', CreationTime: at, Name: 'Box', Qty: '1', Total: null, DocNo: 'R-1' }]],
    [f.lines.id, [line(keep, 'Keep'), line(change, 'Old'), line(drop, 'Drop')]],
  ]);
  const stored: StoredPage = { isNew: false, rows, records: storedRecordsOf(f.page, rows) };
  return { ...f, masterId, keep, change, drop, stored };
}

describe('planWrites', () => {
  it('inserts a new record and records every filled field as a change', () => {
    const { page, master, lines, user } = savePipelineFixture();
    const id = randomUUID();
    const lineId = randomUUID();
    const rows: PageRows = new Map([
      [master.id, [{ record: { Id: id, ParentViewDataId: null, DataStatus: 0, Name: 'Box', Qty: 2, Total: null, DocNo: 'R-1' }, stored: null, member: 'm' }]],
      [lines.id, [{ record: { Id: lineId, ParentViewDataId: id, DataStatus: 2, Product: 'P', Amount: 1 }, stored: null, member: 'l' }]],
    ]);
    const stored: StoredPage = { isNew: true, rows: new Map(), records: storedRecordsOf(page, new Map()) };
    const plan = planWrites(page, rows, stored, { user, now, concurrencyStamp: 'stamp', creationTime: () => at });
    const [m, l] = plan.views;
    expect(m.insertColumns).toEqual(['Id', 'ParentViewDataId', 'DataStatus', 'CreatorId', 'CreationTime', 'ConcurrencyStamp', 'OwnerOrganizationUnitId', 'Name', 'Qty', 'Total', 'DocNo']);
    expect(m.inserts).toEqual([[id, null, 0, user.id, at, 'stamp', null, 'Box', 2, null, 'R-1']]);
    expect(l.inserts).toEqual([[lineId, id, 2, user.id, at, 'stamp', null, 'P', '1.00']]);
    expect(m.updates).toEqual([]);
    expect(plan.changes.map((c) => [c.code, c.before, c.after])).toEqual([['Name', null, 'Box'], ['Qty', null, 2], ['DocNo', null, 'R-1'], ['Product', null, 'P'], ['Amount', null, 1]]);
  });

  it('updates changed rows, leaves unchanged child rows alone, deletes dropped ones, and always stamps the master', () => {
    const { page, master, lines, user, masterId, keep, change, drop, stored } = storedOrder();
    const rec = (view: string, id: string) => ({ ...stored.records.get(view)!.get(id)! });
    const rows: PageRows = new Map([
      [master.id, [{ record: rec(master.id, masterId), stored: stored.records.get(master.id)!.get(masterId)!, member: 'm' }]],
      [lines.id, [
        { record: rec(lines.id, keep), stored: stored.records.get(lines.id)!.get(keep)!, member: 'l0' },
        { record: { ...rec(lines.id, change), Product: 'New' }, stored: stored.records.get(lines.id)!.get(change)!, member: 'l1' },
      ]],
    ]);
    const plan = planWrites(page, rows, stored, { user, now, concurrencyStamp: 'stamp' });
    const [m, l] = plan.views;
    expect(m.updates).toEqual([{ id: masterId, values: { DataStatus: 0, LastModifierId: user.id, LastModificationTime: now, ConcurrencyStamp: 'stamp' } }]);
    expect(l.deletedIds).toEqual([drop]);
    expect(l.updates).toEqual([{ id: change, values: { Product: 'New', DataStatus: 0, LastModifierId: user.id, LastModificationTime: now, ConcurrencyStamp: 'stamp' } }]);
    expect(l.unchanged.map((r) => r.Id)).toEqual([keep]);
    expect(l.inserts).toEqual([]);
    expect(plan.changes.map((c) => [c.rowId, c.code, c.before, c.after])).toEqual([[drop, 'Product', 'Drop', null], [drop, 'Amount', 1, null], [change, 'Product', 'Old', 'New']]);
  });
});

describe('history', () => {
  it('writes a row for a new record or a change, none for a save that changed nothing', () => {
    const { page, user } = savePipelineFixture();
    expect(saveHistory(page, 'm', false, [], authorOf(user, 'zh-CN'))).toBeNull();
    expect(saveHistory(page, 'm', true, [], authorOf(user, 'zh-CN'), () => 'h')).toEqual({ id: 'h', page_id: page.pageId, master_record_id: 'm', action: 'Created', user_id: user.id, user_name: 'Ann', changes: [] });
    expect(saveHistory(page, 'm', false, [{ viewId: 'v', rowId: 'r', code: 'Name', title: 'Name', before: 'a', after: 'b' }], null)).toMatchObject({ action: 'Updated', user_id: null, user_name: null });
  });

  it('records the values a deleted record held', () => {
    const { page, user, masterId, stored, master } = storedOrder();
    const [entry] = deletionHistory(page, stored.rows.get(master.id)!, authorOf(user, 'zh-CN'), () => 'h');
    expect(entry).toMatchObject({ id: 'h', master_record_id: masterId, action: 'Deleted' });
    expect(entry.changes).toEqual([
      { viewId: master.id, rowId: masterId, code: 'Name', title: 'Name', before: 'Box', after: null },
      { viewId: master.id, rowId: masterId, code: 'Qty', title: 'Qty', before: 1, after: null },
      { viewId: master.id, rowId: masterId, code: 'DocNo', title: 'DocNo', before: 'R-1', after: null },
    ]);
  });
});

describe('answerOf', () => {
  it('lists written rows in read order with the fields the caller may see and their display texts', () => {
    const { session, master, lines, masterId, stored } = storedOrder();
    const [a, b, c] = stored.rows.get(lines.id)! as Record<string, unknown>[];
    const later: Record<string, unknown> = { ...a, CreationTime: new Date(at.getTime() + 1) };
    const byId = [b, c].map((r) => String(r.Id)).sort();
    expect([later, c, b].sort(creationOrder).map((r) => r.Id)).toEqual([...byId, later.Id]);
    const hidden = { ...session, access: new PageAccess(session.page, (code: string) => !code.includes('.Qty.')) };
    const answer = answerOf(hidden, new Map([[master.id, stored.rows.get(master.id)!], [lines.id, [later, b]]]));
    expect(answer.viewDataList.map((v) => v.viewId)).toEqual([master.id, lines.id]);
    const [order] = answer.viewDataList[0].dataList;
    expect(order).toMatchObject({ Id: masterId, Name: 'Box', ConcurrencyStamp: 's', CreationTime: at.toISOString() });
    expect(order).not.toHaveProperty('Qty');
    expect(answer.viewDataList[1].dataList.map((r) => r.Id)).toEqual([b.Id, later.Id]);
    expect(answer.viewDataList[1].businessDataList[0]).toMatchObject({ Id: b.Id, Product: 'Old' });
  });
});
