import ExcelJS from 'exceljs';
import { IMPORT_MAX_ROWS } from '@tessera/core/contracts/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { createRole, createUnit, createUser, USER_PASSWORD } from '../../../test/identity-helpers.ts';
import { largeWorkbook, refusedMembers, uploadWorkbook, workbookOf, type SheetRow } from '../../../test/workbook-upload.ts';

let t: TestApp;
let admin: string;
const users = '/api/identity/users';
const HEADER = ['用户名', '名字', '姓氏', '邮箱', '手机号', '密码', '角色', '组织机构', '启用'];

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

const workbook = (rows: SheetRow[], header = HEADER) => workbookOf(header, rows, '用户');
const importFile = (content: Buffer | string, token = admin) => uploadWorkbook(t, token, `${users}/import?fileName=users.xlsx`, content);
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
    const noPassword = await workbook([['x']], ['用户名']);
    const missing = await importFile(noPassword);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toContain('密码');
    expect(refusedMembers(missing)).toEqual(['file']);
    const empty = await importFile(await workbook([]));
    expect(empty.statusCode).toBe(400);
    expect(refusedMembers(empty)).toEqual(['file']);
  });

  it('takes the workbook as an octet stream too, and records the file name as the audit source', async () => {
    const res = await uploadWorkbook(t, admin, `${users}/import?fileName=${encodeURIComponent('新员工.xlsx')}`, await workbook([['octet.user', '', '', '', '', USER_PASSWORD]]), {
      contentType: 'application/octet-stream',
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = await t.database.db.selectFrom('users').select('id').where('user_name', '=', 'octet.user').executeTakeFirstOrThrow();
    const audit = await t.database.db.selectFrom('audit_logs').select('details').where('entity_id', '=', created.id).executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ source: '新员工.xlsx' });
  });

  it('refuses what is not a workbook with a 400 naming the file: other bytes, a JSON body, no body', async () => {
    for (const res of [
      await importFile(Buffer.from('user name,password\nx,y\n')),
      await importFile(Buffer.from(await workbook([['x', '', '', '', '', USER_PASSWORD]])).subarray(0, 300)),
      await t.call(admin, { method: 'POST', url: `${users}/import`, payload: { fileName: 'u.xlsx', content: 'UEsDBA==' } }),
      await t.call(admin, { method: 'POST', url: `${users}/import` }),
    ]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('ValidationError');
      expect(refusedMembers(res)).toEqual(['file']);
    }
    const en = await uploadWorkbook(t, admin, `${users}/import`, 'not a workbook', { headers: { 'accept-language': 'en-US' } });
    expect(en.json().error.message).toBe('The file is not a valid Excel workbook (.xlsx)');
  });

  it('refuses a cell with NUL or a lone surrogate, naming the cell', async () => {
    const res = await importFile(await workbook([['nul.user', 'a_x0000_b', '', '', '', USER_PASSWORD]]));
    expect(res.statusCode, res.body).toBe(400);
    expect(refusedMembers(res)).toEqual(['file']);
    expect(res.json().error.message).toContain('B2');
  });

  it('stops reading at the first row past the cap and imports nothing', async () => {
    const before = await liveUserNames();
    const bytes = await largeWorkbook(HEADER, 1500, (i) => [`cap.${i}`, '', '', '', '', USER_PASSWORD]);
    const res = await importFile(bytes);
    expect(res.statusCode, res.body).toBe(400);
    expect(refusedMembers(res)).toEqual(['file']);
    // Row 1 is the header, rows 2…1,001 the 1,000 allowed: the read ended at row 1,002.
    expect(res.json().error.message).toBe(`一次最多导入 ${IMPORT_MAX_ROWS} 行（文件第 1002 行超出），请分批导入`);
    expect(await liveUserNames()).toEqual(before);
  });

  it('needs the import permission', async () => {
    await createUser(t, admin, { userName: 'plain.user', email: 'plain@example.com', roleNames: [] });
    const plain = await t.login('plain.user', USER_PASSWORD);
    const res = await importFile(await workbook([['no.one', '', '', '', '', USER_PASSWORD]]), plain);
    expect(res.statusCode).toBe(403);
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
