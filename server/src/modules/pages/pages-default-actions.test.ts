import { bizPermission } from '@tessera/core/contracts/permissions';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant, pageWorkCodes } from '../../../test/access-fixtures.ts';
import { bd, newId } from '../../../test/business-data-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { control, pagesApi, view } from '../../../test/page-helpers.ts';
import { up as defaultActionsMigration, uncodedActionsOf } from '../../db/migrations/0602-pages-default-actions.ts';

// The default action codes a published page gets (Biz.<page>.Action.Add …) and the migration that
// gives them to the holders of pages published before they existed.

let t: TestApp;
let admin: string;
let pageId: string;
let masterId: string;
const db = () => t.database.db;
const actionCodes = async (page: string) =>
  (await db().selectFrom('permission_definitions').select('name').where('name', 'like', `Biz.${page}.Action.%`).orderBy('name').execute()).map((r) => r.name);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  // A design with a coded delete button ("Remove"): its code governs deleting, not a default code.
  const master = view('Master', [control('Name', 1001)]);
  master.viewButtons = [{ id: randomUUID(), code: 'Remove', title: '作废', buttonType: 'delete' }];
  masterId = master.id;
  const api = pagesApi(t, () => admin);
  const page = await api.create('Voucher', { viewControls: [master], pageButtons: [{ id: randomUUID(), code: null, title: '新增', buttonType: 'add' }], dataLinkages: [] });
  pageId = page.id;
  expect((await api.publish(pageId)).statusCode).toBe(200);
});
afterAll(() => t.close());

describe('default action codes of a published page', () => {
  it('are defined for the actions no coded button carries out (an uncoded button does not count)', async () => {
    expect(await actionCodes('Voucher')).toEqual(['Biz.Voucher.Action.Add', 'Biz.Voucher.Action.Edit', 'Biz.Voucher.Action.Export', 'Biz.Voucher.Action.Import']);
    const remove = await db().selectFrom('permission_definitions').selectAll().where('name', '=', bizPermission.button('Voucher', 'Remove')).executeTakeFirst();
    expect(remove?.parent_name).toBe('Biz.Voucher.Access');
  });

  it('a coded button governs its action: the default code of that action allows nothing', async () => {
    const role = await createRole(db(), 'voucher-clerks');
    // Even a stray grant of Action.Delete (no such definition) does not allow deleting.
    await grant(db(), 'R', role, [...pageWorkCodes('Voucher'), bizPermission.fieldEdit('Voucher', 'Name')]);
    await createUser(db(), 'vera', { roles: [role] });
    const vera = await t.login('vera', FIXTURE_PASSWORD);
    const id = newId();
    await bd(t, vera, 'save-page', { pageId, viewDataList: [{ viewId: masterId, dataList: [{ Id: id, Name: 'v1' }] }] });
    const refused = await t.call(vera, { method: 'POST', url: '/api/app/business-data/delete-data', payload: { pageId, ids: [id] } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.details.permission).toBe('Biz.Voucher.Remove');
    await grant(db(), 'R', role, [bizPermission.button('Voucher', 'Remove')]);
    t.app.authCache.invalidateAccess();
    expect(await bd(t, vera, 'delete-data', { pageId, ids: [id] })).toEqual({ deleted: 1 });
  });
});

describe('migration 0602: default codes for pages published before them', () => {
  it('finds the uncoded actions of a stored design', () => {
    expect(uncodedActionsOf({ viewControls: [] })).toEqual(['add', 'edit', 'delete', 'import', 'export']);
    expect(
      uncodedActionsOf({
        pageButtons: [{ code: 'Out', buttonType: 'export' }, { code: '', buttonType: 'add' }],
        viewControls: [{ viewButtons: [], viewControls: [{ viewButtons: [{ code: 'Del', buttonType: 'delete' }] }] }],
      }),
    ).toEqual(['add', 'edit', 'import']);
  });

  it('defines them and grants them to every holder of the access code, once', async () => {
    // As before the migration: no default codes, a role and a user holding only access.
    await db().deleteFrom('permission_grants').where('name', 'like', 'Biz.Voucher.Action.%').execute();
    await db().deleteFrom('permission_definitions').where('name', 'like', 'Biz.Voucher.Action.%').execute();
    const holders = await createRole(db(), 'voucher-old-holders');
    const others = await createRole(db(), 'voucher-others');
    await grant(db(), 'R', holders, [bizPermission.access('Voucher')]);
    const userId = await createUser(db(), 'olga');
    await grant(db(), 'U', userId, [bizPermission.access('Voucher')]);
    await grant(db(), 'R', others, [bizPermission.fieldView('Voucher', 'Name')]);

    await defaultActionsMigration(db());
    await defaultActionsMigration(db());

    expect(await actionCodes('Voucher')).toEqual(['Biz.Voucher.Action.Add', 'Biz.Voucher.Action.Edit', 'Biz.Voucher.Action.Export', 'Biz.Voucher.Action.Import']);
    const grants = async (kind: 'R' | 'U', key: string) =>
      (await db().selectFrom('permission_grants').select('name').where('provider_name', '=', kind).where('provider_key', '=', key).where('name', 'like', 'Biz.Voucher.Action.%').orderBy('name').execute()).map((g) => g.name);
    expect(await grants('R', holders)).toEqual(['Biz.Voucher.Action.Add', 'Biz.Voucher.Action.Edit', 'Biz.Voucher.Action.Export', 'Biz.Voucher.Action.Import']);
    expect(await grants('U', userId)).toHaveLength(4);
    expect(await grants('R', others)).toEqual([]);
  });
});
