import { bizPermission } from '@tessera/core/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bd, newId, publishPage } from './business-data-fixtures.ts';
import { control, view } from './page-helpers.ts';
import { createRole, createUser, FIXTURE_PASSWORD, grant } from './access-fixtures.ts';
import { createTestApp, type TestApp } from './test-app.ts';

// Issue 25, "reaching only what was granted": a lookup answers only to those who may view the
// lookup control, and with only the designer's columns; the directory of people, units and roles
// answers a picker on a page the caller can open, or an administrator.

let t: TestApp;
let admin: string;
let clerk: string;
let viewer: string;
const salary = view('Salary', [control('Employee', 1001), control('Amount', 1003, { extraProperties: { accuracy: 2 } }), control('Bank', 1001)]);
const c = {
  // A lookup whose design names no column, one that shows and maps the name, and a user picker.
  bare: control('Payee', 1010, { extraProperties: { dataSourceId: salary.id } }),
  named: control('Staff', 1010, { extraProperties: { dataSourceId: salary.id, dataSourceTitle: 'Employee', mapFields: [{ sourceCode: 'Employee', targetCode: 'StaffName' }] } }),
  staffName: control('StaffName', 1001),
  note: control('Note', 1001),
  people: control('Handler', 4001, { extraProperties: { selectionType: 3 } }),
};
const orders = view('Orders', Object.values(c));
let ordersPageId = '';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const salaryPageId = await publishPage(t, admin, 'Salary', { viewControls: [salary], pageButtons: [], dataLinkages: [] });
  ordersPageId = await publishPage(t, admin, 'Orders', { viewControls: [orders], pageButtons: [], dataLinkages: [] });
  await bd(t, admin, 'save-page', { pageId: salaryPageId, viewDataList: [{ viewId: salary.id, dataList: [{ Id: newId(), Employee: 'Wang', Amount: '98000.00', Bank: 'ICBC 6222' }] }] });
  const db = t.database.db;
  // The clerk opens Orders and edits its note — not the lookups or the picker.
  const clerks = await createRole(db, 'clerks');
  await grant(db, 'R', clerks, [bizPermission.access('Orders'), bizPermission.fieldEdit('Orders', 'Note')]);
  await createUser(db, 'clerk', { roles: [clerks] });
  // The viewer may also see the lookups and the picker.
  const viewers = await createRole(db, 'viewers');
  await grant(db, 'R', viewers, [bizPermission.access('Orders'), ...['Payee', 'Staff', 'StaffName', 'Handler'].map((f) => bizPermission.fieldView('Orders', f))]);
  await createUser(db, 'viewer', { roles: [viewers] });
  clerk = await t.login('clerk', FIXTURE_PASSWORD);
  viewer = await t.login('viewer', FIXTURE_PASSWORD);
});
afterAll(() => t.close());

describe('lookup window and drop-down', () => {
  it('a caller who may not view the lookup control gets a 403 — not the source rows', async () => {
    for (const control of [c.bare, c.named]) {
      await bd(t, clerk, 'query-open-windows-data', { pageId: ordersPageId, dataControlId: control.id }, 403);
      await bd(t, clerk, 'query-drop-down-data', { pageId: ordersPageId, dataControlId: control.id }, 403);
    }
  });

  it('a design that names no columns shows the source view’s first text column only', async () => {
    const window = await bd(t, viewer, 'query-open-windows-data', { pageId: ordersPageId, dataControlId: c.bare.id });
    expect(window.columns.map((col: { code: string }) => col.code)).toEqual(['Employee']);
    expect(window.items).toEqual([{ Id: expect.any(String), Employee: 'Wang' }]);
    expect(JSON.stringify(window)).not.toMatch(/98000|ICBC/);
  });

  it('a design that shows and maps columns answers those only', async () => {
    const window = await bd(t, viewer, 'query-open-windows-data', { pageId: ordersPageId, dataControlId: c.named.id });
    expect(window.columns.map((col: { code: string }) => col.code)).toEqual(['Employee']);
    expect(JSON.stringify(window)).not.toMatch(/98000|ICBC/);
    const options = await bd(t, viewer, 'query-drop-down-data', { pageId: ordersPageId, dataControlId: c.named.id });
    expect(options.items.map((o: { label: string }) => o.label)).toEqual(['Wang']);
  });
});

describe('directory (selection items)', () => {
  const get = (token: string, query: string) => t.call(token, { method: 'GET', url: `/api/identity/selection-items?${query}` });
  const picker = (id = c.people.id) => `pageId=${ordersPageId}&dataControlId=${id}`;

  it('without a context it is for administrators’ screens only', async () => {
    expect((await get(clerk, 'type=3')).statusCode).toBe(403);
    expect((await get(viewer, 'type=1')).statusCode).toBe(403);
    const res = await get(admin, 'type=3&filter=clerk');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ id: expect.any(String), title: 'clerk', description: 'clerk' }]);
  });

  it('a picker on a page the caller can open and view answers display names only', async () => {
    const res = await get(viewer, `type=3&filter=clerk&${picker()}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([{ id: expect.any(String), title: 'clerk', description: null }]);
  });

  it('refused for a picker the caller may not view, another control, or another kind of item', async () => {
    expect((await get(clerk, `type=3&${picker()}`)).statusCode).toBe(403);
    expect((await get(viewer, `type=3&${picker(c.note.id)}`)).statusCode).toBe(403);
    expect((await get(viewer, `type=4&${picker()}`)).statusCode).toBe(403);
    expect((await get(viewer, `type=1&${picker()}`)).statusCode).toBe(403);
  });

  it('paged, at most 100 at once; page and control go together', async () => {
    expect((await get(admin, 'type=3&maxResultCount=101')).statusCode).toBe(400);
    expect((await get(admin, `type=3&pageId=${ordersPageId}`)).statusCode).toBe(400);
    const all = (await get(admin, 'type=3&maxResultCount=100')).json() as { id: string }[];
    expect(all.length).toBeGreaterThanOrEqual(3);
    const second = (await get(admin, 'type=3&maxResultCount=1&skipCount=1')).json() as { id: string }[];
    expect(second.map((i) => i.id)).toEqual([all[1]!.id]);
  });
});
