import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { createRole, createUnit, createUser, USER_PASSWORD } from '../../../test/identity-helpers.ts';

let t: TestApp;
let admin: string;
const users = '/api/identity/users';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const hq = await t.database.db.selectFrom('organization_units').select('id').where('display_name', '=', '总部').executeTakeFirstOrThrow();
  await createUnit(t, admin, '研发部', hq.id);
  await createRole(t, admin, { name: 'staff', isDefault: true });
  await createRole(t, admin, { name: 'manager' });
  await createUser(t, admin, { userName: 'existing', email: 'existing@example.com' });
});
afterAll(() => t.close());

async function workbook(rows: (string | number | boolean | null)[][], header = ['用户名', '名字', '姓氏', '邮箱', '手机号', '密码', '角色', '组织机构', '启用']) {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('用户');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
}

const importFile = (content: string, token = admin) => t.call(token, { method: 'POST', url: `${users}/import`, payload: { fileName: 'users.xlsx', content } });
const liveUserNames = async () => (await t.database.db.selectFrom('users').select('user_name').where('is_deleted', '=', false).execute()).map((r) => r.user_name).sort();

async function readXlsx(body: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  return wb;
}

describe('user import', () => {
  it('downloads a template whose header the import accepts', async () => {
    const res = await t.call(admin, { method: 'GET', url: `${users}/import-template` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain('attachment');
    const wb = await readXlsx(res.rawPayload);
    const header = (wb.worksheets[0]!.getRow(1).values as string[]).filter(Boolean);
    expect(header).toEqual(['用户名', '名字', '姓氏', '邮箱', '手机号', '密码', '角色', '组织机构', '启用']);
    const help = wb.worksheets[1]!.getColumn(1).values.map(String).join('\n');
    expect(help).toContain('总部/研发部');
    expect(help).toContain('manager');
    const en = await t.call(admin, { method: 'GET', url: `${users}/import-template`, headers: { 'accept-language': 'en-US' } });
    const enHeader = ((await readXlsx(en.rawPayload)).worksheets[0]!.getRow(1).values as string[]).filter(Boolean);
    expect(enHeader[0]).toBe('User name');
  });

  it('reports every invalid row and column, and imports nothing', async () => {
    const before = await liveUserNames();
    const content = await workbook([
      ['good.one', '一', '王', 'one@example.com', '13800000001', USER_PASSWORD, 'manager', '总部/研发部', '是'],
      ['', '缺用户名', '', '', '', USER_PASSWORD, '', '', ''],
      ['weak.pw', '', '', '', '', 'abc', '', '', ''],
      ['existing', '', '', '', '', USER_PASSWORD, '', '', ''],
      ['bad.role', '', '', 'bad-email', '', USER_PASSWORD, 'nope', '总部/不存在', '也许'],
      ['good.one', '', '', 'existing@example.com', '', USER_PASSWORD, '', '', ''],
    ]);
    const res = await importFile(content);
    expect(res.statusCode, res.body).toBe(400);
    const rows = res.json().error.details.rows as { row: number; column: string; message: string }[];
    const at = (row: number) => rows.filter((r) => r.row === row).map((r) => r.column).sort();
    expect(at(2)).toEqual([]);
    expect(at(3)).toEqual(['用户名']);
    expect(at(4)).toEqual(['密码']);
    expect(at(5)).toEqual(['用户名']);
    expect(at(6)).toEqual(['启用', '组织机构', '邮箱'].sort());
    expect(at(7)).toEqual(['用户名', '邮箱'].sort());
    expect(rows.find((r) => r.row === 7 && r.column === '用户名')!.message).toContain('第 2 行');
    expect(res.json().error.validationErrors[0].message).toMatch(/^第 3 行 用户名/);
    expect(res.json().error.message).toContain('未导入任何数据');
    expect(await liveUserNames()).toEqual(before);
  });

  it('imports every row in one go when all are valid', async () => {
    const content = await workbook([
      ['imp.one', '一', '王', 'imp1@example.com', 13800000001, USER_PASSWORD, 'manager, staff', '总部/研发部', '是'],
      ['imp.two', '二', '李', '', '', USER_PASSWORD, '', '00001', '否'],
      ['', '', '', '', '', '', '', '', ''],
      ['imp.three', '', '', '', '', USER_PASSWORD, '', '总部 / 研发部; 总部', ''],
    ]);
    const res = await importFile(content);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ importedCount: 3 });
    const list = (await t.call(admin, { method: 'GET', url: `${users}?Filter=imp.&Sorting=userName` })).json();
    expect(list.items.map((u: { userName: string }) => u.userName)).toEqual(['imp.one', 'imp.three', 'imp.two']);
    const [one, three, two] = list.items;
    expect(one).toMatchObject({ name: '一', surname: '王', phoneNumber: '13800000001', roleNames: ['manager', 'staff'], isActive: true });
    expect(one.organizationUnits.map((u: { displayName: string }) => u.displayName)).toEqual(['研发部']);
    expect(two).toMatchObject({ isActive: false, roleNames: ['staff'] });
    expect(two.organizationUnits.map((u: { displayName: string }) => u.displayName)).toEqual(['总部']);
    expect(three.organizationUnits).toHaveLength(2);
    await t.login('imp.one', USER_PASSWORD);
    const audit = await t.database.db.selectFrom('audit_logs').select('details').where('entity_type', '=', 'User').where('entity_id', '=', one.id).execute();
    expect(audit[0]!.details).toMatchObject({ before: null, after: { userName: 'imp.one' } });
    expect(JSON.stringify(audit[0]!.details)).not.toContain(USER_PASSWORD);
  });

  it('accepts English headers and refuses unreadable files, missing columns and empty sheets', async () => {
    const en = await workbook([['en.user', '', '', '', '', USER_PASSWORD]], ['User name', 'Name', 'Surname', 'E-mail', 'Phone number', 'Password']);
    expect((await importFile(en)).json()).toEqual({ importedCount: 1 });
    expect((await importFile(Buffer.from('not a workbook').toString('base64'))).statusCode).toBe(400);
    const noPassword = await workbook([['x']], ['用户名']);
    const missing = await importFile(noPassword);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toContain('密码');
    expect((await importFile(await workbook([]))).statusCode).toBe(400);
    expect((await t.call(admin, { method: 'POST', url: `${users}/import`, payload: { content: '***' } })).statusCode).toBe(400);
  });
});

describe('user export', () => {
  it('exports the users matching the filters, without passwords', async () => {
    const res = await t.call(admin, { method: 'GET', url: `${users}/export?Filter=imp.` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const sheet = (await readXlsx(res.rawPayload)).worksheets[0]!;
    const header = (sheet.getRow(1).values as string[]).filter(Boolean);
    expect(header).not.toContain('密码');
    expect(header.slice(0, 3)).toEqual(['用户名', '名字', '姓氏']);
    const names = [];
    for (let r = 2; r <= sheet.rowCount; r++) names.push(sheet.getRow(r).getCell(1).text);
    expect(names).toEqual(['imp.one', 'imp.three', 'imp.two']);
    expect(sheet.getRow(2).getCell(7).text).toBe('总部/研发部');
    expect(res.rawPayload.toString('latin1')).not.toContain('argon2');
  });
});
