import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRoleId, createRole, createUser } from '../../../test/access-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { loadUserAccess } from '../../platform/access.ts';
import { dataScopeFor } from './data-scopes.service.ts';

/** A user's data-scope subject as the auth guard's cached access list gives it. */
const subject = async (userId: string) => loadUserAccess(db(), userId);

let t: TestApp;
let admin: string;
const URL = '/api/app/data-scopes';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(() => t.close());

const db = () => t.database.db;
const put = (roleId: string, items: unknown[]) => t.call(admin, { method: 'PUT', url: `${URL}?roleId=${roleId}`, payload: { items } });
const cond = (extra: object = {}) => ({ key: 'Region', judgmentMethod: 1, value: 'East', ...extra });

describe('data scopes per role and page', () => {
  it('stores, replaces and reads a role’s scopes', async () => {
    const roleId = await createRole(db(), 'clerks');
    expect((await t.call(admin, { method: 'GET', url: `${URL}?roleId=${roleId}` })).json()).toEqual({ roleId, roleName: 'clerks', items: [] });
    const res = await put(roleId, [
      { pageKey: 'Orders', scope: 'own' },
      { pageKey: 'Invoices', scope: 'custom', customFilter: [cond({ leftBracket: '(' }), cond({ key: 'Amount', value: 10, rightBracket: ')', linkCondition: 'or' })] },
    ]);
    expect(res.statusCode).toBe(200);
    // Operators by code or numeric id (the shared filter table).
    const byCode = await put(roleId, [{ pageKey: 'Quotes', scope: 'custom', customFilter: [cond({ judgmentMethod: 'in', value: ['East', 'West'] })] }]);
    expect(byCode.statusCode).toBe(200);
    expect(res.json().items).toEqual([
      { pageKey: 'Invoices', scope: 'custom', customFilter: [cond({ leftBracket: '(' }), cond({ key: 'Amount', value: 10, rightBracket: ')', linkCondition: 'or' })] },
      { pageKey: 'Orders', scope: 'own', customFilter: null },
    ]);
    await put(roleId, [
      { pageKey: 'Orders', scope: 'own' },
      { pageKey: 'Invoices', scope: 'custom', customFilter: [cond({ leftBracket: '(' }), cond({ key: 'Amount', value: 10, rightBracket: ')', linkCondition: 'or' })] },
    ]);
    expect((await put(roleId, [{ pageKey: 'Orders', scope: 'unitAndBelow' }])).json().items).toEqual([
      { pageKey: 'Orders', scope: 'unitAndBelow', customFilter: null },
    ]);
    const audit = await db().selectFrom('audit_logs').selectAll().where('entity_type', '=', 'DataScope').orderBy('time', 'desc').executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ role: 'clerks', after: [{ pageKey: 'Orders', scope: 'unitAndBelow' }] });
  });

  it('rejects bad input before writing', async () => {
    const roleId = await createRole(db(), 'picky');
    await put(roleId, [{ pageKey: 'Orders', scope: 'own' }]);
    const cases: [unknown[], string][] = [
      [[{ pageKey: 'Orders', scope: 'everything' }], 'items.0.scope'],
      [[{ pageKey: 'Orders', scope: 'custom' }], 'items.0.customFilter'],
      [[{ pageKey: 'Orders', scope: 'custom', customFilter: [] }], 'items.0.customFilter'],
      [[{ pageKey: 'Orders', scope: 'own', customFilter: [cond()] }], 'items.0.customFilter'],
      [[{ pageKey: 'Orders', scope: 'custom', customFilter: [cond({ leftBracket: '((' }), cond({ rightBracket: ')' })] }], 'items.0.customFilter'],
      [[{ pageKey: 'Orders', scope: 'custom', customFilter: [cond({ rightBracket: ')' }), cond({ leftBracket: '(' })] }], 'items.0.customFilter.0.rightBracket'],
      [[{ pageKey: 'Orders', scope: 'custom', customFilter: [cond({ key: 'x; drop table users' })] }], 'items.0.customFilter.0.key'],
      [[{ pageKey: 'Orders', scope: 'own' }, { pageKey: 'Orders', scope: 'all' }], 'items.1.pageKey'],
      [[{ pageKey: 'bad key!', scope: 'own' }], 'items.0.pageKey'],
      [[{ pageKey: 'Orders', scope: 'custom', customFilter: [cond({ judgmentMethod: 'resembles' })] }], 'items.0.customFilter.0.judgmentMethod'],
      [[{ pageKey: 'Orders', scope: 'custom', customFilter: [cond({ judgmentMethod: 999 })] }], 'items.0.customFilter.0.judgmentMethod'],
    ];
    for (const [items, member] of cases) {
      const res = await put(roleId, items);
      expect(res.statusCode, JSON.stringify(items)).toBe(400);
      expect(res.json().error.validationErrors[0].members[0]).toContain(member);
    }
    expect((await t.call(admin, { method: 'GET', url: `${URL}?roleId=${roleId}` })).json().items).toEqual([
      { pageKey: 'Orders', scope: 'own', customFilter: null },
    ]);
    expect((await put(await adminRoleId(db()), [{ pageKey: 'Orders', scope: 'own' }])).statusCode).toBe(400);
    expect((await t.call(admin, { method: 'GET', url: `${URL}?roleId=nope` })).statusCode).toBe(400);
    expect((await t.call(admin, { method: 'GET', url: `${URL}?roleId=0190a0a0-0000-7000-8000-000000000000` })).statusCode).toBe(404);
    expect((await put('0190a0a0-0000-7000-8000-000000000000', [])).statusCode).toBe(404);
  });

  it('resolves the most permissive scope of a user’s roles', async () => {
    const own = await createRole(db(), 'scope-own');
    const unit = await createRole(db(), 'scope-unit');
    const custom = await createRole(db(), 'scope-custom');
    const silent = await createRole(db(), 'scope-unset');
    await put(own, [{ pageKey: 'Orders', scope: 'own' }, { pageKey: 'Quotes', scope: 'own' }]);
    await put(unit, [{ pageKey: 'Orders', scope: 'ownUnit' }]);
    await put(custom, [
      { pageKey: 'Orders', scope: 'custom', customFilter: [cond()] },
      { pageKey: 'Quotes', scope: 'custom', customFilter: [cond({ key: 'Total' })] },
    ]);

    const ownOnly = await createUser(db(), 'only-own', { roles: [own] });
    expect(await dataScopeFor(db(), await subject(ownOnly), 'Orders')).toEqual({ scope: 'own', customFilters: [] });
    const ownAndUnit = await createUser(db(), 'own-and-unit', { roles: [own, unit] });
    expect(await dataScopeFor(db(), await subject(ownAndUnit), 'Orders')).toEqual({ scope: 'ownUnit', customFilters: [] });
    const withCustom = await createUser(db(), 'with-custom', { roles: [own, unit, custom] });
    expect(await dataScopeFor(db(), await subject(withCustom), 'Orders')).toEqual({ scope: 'ownUnit', customFilters: [[cond()]] });
    const customOnly = await createUser(db(), 'custom-only', { roles: [custom] });
    expect(await dataScopeFor(db(), await subject(customOnly), 'Quotes')).toEqual({ scope: 'custom', customFilters: [[cond({ key: 'Total' })]] });
    // A role without a setting for the page sees all of it, and that wins.
    const unset = await createUser(db(), 'with-unset', { roles: [own, silent] });
    expect(await dataScopeFor(db(), await subject(unset), 'Orders')).toEqual({ scope: 'all', customFilters: [] });
    expect(await dataScopeFor(db(), await subject(ownOnly), 'Elsewhere')).toEqual({ scope: 'all', customFilters: [] });
    const adminId = (await db().selectFrom('users').select('id').where('user_name', '=', 'admin').executeTakeFirstOrThrow()).id;
    expect(await dataScopeFor(db(), await subject(adminId), 'Orders')).toEqual({ scope: 'all', customFilters: [] });
  });

  it('removes a role’s scopes with the role', async () => {
    const roleId = await createRole(db(), 'short-lived');
    await put(roleId, [{ pageKey: 'Orders', scope: 'own' }]);
    await db().deleteFrom('roles').where('id', '=', roleId).execute();
    expect(await db().selectFrom('data_scopes').select('id').where('role_id', '=', roleId).execute()).toEqual([]);
  });
});
