import type { TIdentityRole, TIdentityUser, TOrganizationUnit } from '@tessera/core/contracts/identity';
import { expect } from 'vitest';
import type { TestApp } from './test-app.ts';

/**
 * Shared set-up for tests that go through the identity API: create units, users and roles as an
 * administrator would and assert it worked (access-fixtures.ts writes them straight to the
 * database instead).
 */
export const USER_PASSWORD = 'User#2026pw';

export async function createUnit(t: TestApp, token: string, displayName: string, parentId: string | null = null): Promise<TOrganizationUnit> {
  const res = await t.call(token, { method: 'POST', url: '/api/identity/organization-units', payload: { displayName, parentId } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export async function createUser(t: TestApp, token: string, fields: Record<string, unknown> & { userName: string }): Promise<TIdentityUser> {
  const res = await t.call(token, { method: 'POST', url: '/api/identity/users', payload: { password: USER_PASSWORD, ...fields } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export async function createRole(t: TestApp, token: string, fields: Record<string, unknown> & { name: string }): Promise<TIdentityRole> {
  const res = await t.call(token, { method: 'POST', url: '/api/identity/roles', payload: fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export async function adminUserId(t: TestApp): Promise<string> {
  const row = await t.database.db.selectFrom('users').select('id').where('user_name', '=', 'admin').executeTakeFirstOrThrow();
  return row.id;
}

export async function auditOf(t: TestApp, entityType: string, entityId: string) {
  return t.database.db
    .selectFrom('audit_logs')
    .select(['action', 'details', 'user_name'])
    .where('entity_type', '=', entityType)
    .where('entity_id', '=', entityId)
    .orderBy('time')
    .execute();
}
