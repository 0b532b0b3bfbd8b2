import ExcelJS from 'exceljs';
import { P } from '@tessera/core/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let admin: string;
let startedAt: string;
const URL = '/api/app/audit-logs';

beforeAll(async () => {
  t = await createTestApp();
  startedAt = new Date(Date.now() - 1000).toISOString();
  admin = await t.login();
  // A failed sign-in, a denial and a data change to find in the log.
  await t.app.inject({ method: 'POST', url: '/api/Auth/Login', payload: { username: 'admin', password: 'wrong' } });
  const roleId = await createRole(t.database.db, 'log-readers');
  await grant(t.database.db, 'R', roleId, [P.AuditLogs]);
  await createUser(t.database.db, 'log-reader', { roles: [roleId] });
  const reader = await t.login('log-reader', FIXTURE_PASSWORD);
  await t.call(reader, { method: 'POST', url: '/api/app/business-menu', payload: { title: { 'zh-CN': '不许' } } });
  await t.call(admin, { method: 'POST', url: '/api/app/business-menu', payload: { title: { 'zh-CN': '财务', 'en-US': 'Finance' } } });
});
afterAll(() => t.close());

const list = async (query = '', token = admin) => {
  const res = await t.call(token, { method: 'GET', url: `${URL}${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('audit log', () => {
  it('lists sign-ins, failures, denials and data changes, newest first', async () => {
    const all = await list();
    expect(all.totalCount).toBe(all.items.length);
    const actions = all.items.map((i: { action: string }) => i.action);
    expect(actions).toEqual(expect.arrayContaining(['LoginSucceeded', 'LoginFailed', 'PermissionDenied', 'Created']));
    const times = all.items.map((i: { time: string }) => Date.parse(i.time));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const denial = all.items.find((i: { action: string }) => i.action === 'PermissionDenied');
    expect(denial).toMatchObject({ userName: 'log-reader', details: { permission: P.MenusCreate, method: 'POST', route: '/api/app/business-menu' } });
    const change = all.items.find((i: { action: string; entityType: string }) => i.action === 'Created' && i.entityType === 'BusinessMenu');
    expect(change).toMatchObject({ userName: 'admin', details: { after: { title: { 'zh-CN': '财务', 'en-US': 'Finance' } } } });
    expect(change.entityId).toMatch(/^[0-9a-f-]{36}$/);
    expect(change.time).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('filters by action, user, entity, time and text, and pages', async () => {
    const failed = await list('?Action=LoginFailed');
    expect(failed.totalCount).toBe(1);
    expect(failed.items[0]).toMatchObject({ action: 'LoginFailed', userName: 'admin', details: { reason: 'wrong password' } });
    const two = await list('?Action=LoginFailed,PermissionDenied');
    expect(two.totalCount).toBe(2);
    const reader = await list('?UserName=READER');
    expect(reader.items.every((i: { userName: string }) => i.userName === 'log-reader')).toBe(true);
    expect(reader.totalCount).toBe(2);
    const readerId = reader.items[0].userId;
    expect((await list(`?UserId=${readerId}`)).totalCount).toBe(2);
    expect((await list('?EntityType=BusinessMenu')).totalCount).toBe(1);
    expect((await list(`?Filter=${encodeURIComponent('business')}`)).totalCount).toBe(1);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect((await list(`?StartTime=${encodeURIComponent(future)}`)).totalCount).toBe(0);
    const all = await list();
    expect((await list(`?StartTime=${encodeURIComponent(startedAt)}&EndTime=${encodeURIComponent(future)}`)).totalCount).toBe(all.totalCount);
    expect((await list(`?EndTime=${encodeURIComponent(startedAt)}`)).totalCount).toBe(0);
    const page = await list('?SkipCount=1&MaxResultCount=2');
    expect(page.items.map((i: { id: string }) => i.id)).toEqual(all.items.slice(1, 3).map((i: { id: string }) => i.id));
    expect(page.totalCount).toBe(all.totalCount);
    const byAction = await list('?Sorting=action asc');
    const sorted = byAction.items.map((i: { action: string }) => i.action);
    expect(sorted).toEqual([...sorted].sort());
    expect((await list('?Filter=%25')).totalCount).toBe(0);
  });

  it('rejects bad filters and unknown sorting falls back', async () => {
    for (const query of ['?StartTime=yesterday', '?Action=Login%27--', '?UserId=nope', '?MaxResultCount=5000', '?SkipCount=x']) {
      const res = await t.call(admin, { method: 'GET', url: `${URL}${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.validationErrors.length).toBeGreaterThan(0);
    }
    expect((await t.call(admin, { method: 'GET', url: `${URL}?Sorting=${encodeURIComponent('time; drop table users')}` })).statusCode).toBe(200);
  });

  it('lists the actions present', async () => {
    const res = await t.call(admin, { method: 'GET', url: `${URL}/actions` });
    expect(res.json().items).toEqual(expect.arrayContaining(['Created', 'LoginFailed', 'LoginSucceeded', 'PermissionDenied']));
  });

  it('exports the filtered log to Excel', async () => {
    const res = await t.call(admin, { method: 'GET', url: `${URL}/export?Action=LoginSucceeded,LoginFailed` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="audit-log-\d{4}-\d\d-\d\d\.xlsx"/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe('审计日志');
    expect(sheet.getRow(1).values).toEqual([undefined, '时间', '用户', '操作', '对象类型', '对象', 'IP 地址', '详情']);
    const expected = (await list('?Action=LoginSucceeded,LoginFailed')).totalCount;
    expect(sheet.rowCount - 1).toBe(expected);
    const actions = new Set<string>();
    sheet.eachRow((row, n) => n > 1 && actions.add(String(row.getCell(3).value)));
    expect([...actions].sort()).toEqual(['LoginFailed', 'LoginSucceeded']);
    expect(sheet.getRow(2).getCell(1).value).toBeInstanceOf(Date);
    const en = await t.call(admin, { method: 'GET', url: `${URL}/export?Action=LoginFailed`, headers: { 'accept-language': 'en-US' } });
    const enBook = new ExcelJS.Workbook();
    await enBook.xlsx.load(en.rawPayload as unknown as ArrayBuffer);
    expect(enBook.worksheets[0]!.getRow(1).getCell(3).value).toBe('Action');
    expect(enBook.worksheets[0]!.getRow(2).getCell(7).value).toContain('wrong password');
  });

  it('needs the audit codes: view to list, export to export', async () => {
    const reader = await t.login('log-reader', FIXTURE_PASSWORD);
    expect((await t.call(reader, { method: 'GET', url: URL })).statusCode).toBe(200);
    expect((await t.call(reader, { method: 'GET', url: `${URL}/export` })).statusCode).toBe(403);
    await createUser(t.database.db, 'no-logs');
    const other = await t.login('no-logs', FIXTURE_PASSWORD);
    expect((await t.call(other, { method: 'GET', url: URL })).statusCode).toBe(403);
    expect((await t.call(other, { method: 'GET', url: `${URL}/actions` })).statusCode).toBe(403);
  });
});
