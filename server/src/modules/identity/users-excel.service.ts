import ExcelJS from 'exceljs';
import { localizeIssueMessage } from '../../platform/validation-messages.ts';
import {
  IMPORT_MAX_ROWS,
  USER_SHEET_COLUMNS,
  ZCreateUserInput,
  type TImportRowError,
  type TImportUsersQuery,
  type TUserQuery,
  type TUserSheetColumn,
} from '@tessera/core/contracts/identity';
import { uuidv7 } from '../../platform/ids.ts';
import { ADMIN_ROLE_NAME } from '../../platform/access.ts';
import { recordAudit } from '../../platform/audit.ts';
import { forbidden } from '../../platform/errors.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { parseBoolean, styleHeaderRow, workbookBuffer } from '../../platform/excel.ts';
import { FILE_MEMBER, readHeadedSheet } from '../../platform/excel-reader.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { guardDelegation } from '../../platform/delegation.ts';
import { identityInvalid, identityText } from './identity.messages.ts';
import { validationFailure } from '../../platform/module-messages.ts';

import * as repo from './users.repository.ts';
import { checkCandidates, toUserDto, userFilterOf } from './users.service.ts';
import { isUniqueViolation } from '../../platform/sql-values.ts';

const EXPORT_MAX_ROWS = 100_000;

const COLUMN_TITLES: Record<TUserSheetColumn, { 'zh-CN': string; 'en-US': string }> = {
  userName: { 'zh-CN': '用户名', 'en-US': 'User name' },
  name: { 'zh-CN': '名字', 'en-US': 'Name' },
  surname: { 'zh-CN': '姓氏', 'en-US': 'Surname' },
  email: { 'zh-CN': '邮箱', 'en-US': 'E-mail' },
  phoneNumber: { 'zh-CN': '手机号', 'en-US': 'Phone number' },
  password: { 'zh-CN': '密码', 'en-US': 'Password' },
  roleNames: { 'zh-CN': '角色', 'en-US': 'Roles' },
  organizationUnits: { 'zh-CN': '组织机构', 'en-US': 'Organisation units' },
  isActive: { 'zh-CN': '启用', 'en-US': 'Active' },
};
const REQUIRED: TUserSheetColumn[] = ['userName', 'password'];
const LIST_SEPARATOR = /[,，;；、\n]/;
const UNIT_SEPARATOR = /[;；\n]/;

const columnTitle = (ctx: ServiceContext, column: TUserSheetColumn) => COLUMN_TITLES[column][ctx.culture];

/** Unit paths by display names (`总部/研发部`) from the materialised codes. */
function unitPaths(units: { id: string; code: string; display_name: string }[]) {
  const nameByCode = new Map(units.map((u) => [u.code, u.display_name]));
  return units.map((u) => {
    const segments = u.code.split('.');
    const path = segments.map((_, i) => nameByCode.get(segments.slice(0, i + 1).join('.')) ?? '?').join('/');
    return { id: u.id, code: u.code, path };
  });
}

/** The import template: the column titles, and a second sheet with the rules, roles and unit paths. */
export async function userImportTemplate(ctx: ServiceContext): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(identityText(ctx, 'sheet.users'));
  sheet.columns = USER_SHEET_COLUMNS.map((c) => ({ header: columnTitle(ctx, c), key: c, width: c === 'organizationUnits' ? 32 : 18 }));
  styleHeaderRow(sheet);
  for (const c of REQUIRED) sheet.getCell(1, USER_SHEET_COLUMNS.indexOf(c) + 1).font = { bold: true, color: { argb: 'FFCF1322' } };
  const help = workbook.addWorksheet(identityText(ctx, 'sheet.instructions'));
  help.getColumn(1).width = 90;
  for (const key of ['sheet.help.1', 'sheet.help.2', 'sheet.help.3', 'sheet.help.4', 'sheet.help.5'] as const) help.addRow([identityText(ctx, key)]);
  help.addRow([]);
  help.addRow([identityText(ctx, 'sheet.roles')]).font = { bold: true };
  for (const role of await repo.allRoles(ctx.db)) help.addRow([role.name]);
  help.addRow([]);
  help.addRow([identityText(ctx, 'sheet.units')]).font = { bold: true };
  for (const unit of unitPaths(await repo.allUnitsForLookup(ctx.db))) help.addRow([`${unit.path}    (${unit.code})`]);
  return workbookBuffer(workbook);
}

export async function exportUsers(ctx: ServiceContext, query: TUserQuery): Promise<Buffer> {
  const rows = (await repo.allUsers(ctx.db, await userFilterOf(ctx, query), EXPORT_MAX_ROWS)).map(toUserDto);
  const paths = new Map(unitPaths(await repo.allUnitsForLookup(ctx.db)).map((u) => [u.id, u.path]));
  const yes = identityText(ctx, 'sheet.yes');
  const no = identityText(ctx, 'sheet.no');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(identityText(ctx, 'sheet.users'));
  const columns = USER_SHEET_COLUMNS.filter((c) => c !== 'password');
  sheet.columns = [
    ...columns.map((c) => ({ header: columnTitle(ctx, c), key: c, width: c === 'organizationUnits' ? 32 : 18 })),
    { header: identityText(ctx, 'sheet.locked'), key: 'locked', width: 12 },
    { header: ctx.culture === 'en-US' ? 'Created' : '创建时间', key: 'creationTime', width: 22 },
  ];
  styleHeaderRow(sheet);
  for (const u of rows) {
    sheet.addRow({
      userName: u.userName,
      name: u.name,
      surname: u.surname,
      email: u.email,
      phoneNumber: u.phoneNumber,
      roleNames: u.roleNames.join(', '),
      organizationUnits: u.organizationUnits.map((o) => paths.get(o.id) ?? o.displayName).join('; '),
      isActive: u.isActive ? yes : no,
      locked: u.isLockedOut ? yes : no,
      creationTime: new Date(u.creationTime),
    });
  }
  sheet.getColumn('creationTime').numFmt = 'yyyy-mm-dd hh:mm:ss';
  return workbookBuffer(workbook);
}

/** The sheet's column by its header title: either language, or the field name itself. */
function columnOfTitle(title: string): TUserSheetColumn | undefined {
  const t = title.trim().toLowerCase();
  return USER_SHEET_COLUMNS.find((c) => c.toLowerCase() === t || COLUMN_TITLES[c]['zh-CN'].toLowerCase() === t || COLUMN_TITLES[c]['en-US'].toLowerCase() === t);
}

type SheetRecord = { row: number; cells: Partial<Record<TUserSheetColumn, string>> };

/**
 * The rows of the uploaded template (first sheet), read one by one: the header (row 1) must name
 * the required columns, and a row past IMPORT_MAX_ROWS ends the read with a 400.
 */
async function readUserRows(ctx: ServiceContext, bytes: Buffer): Promise<SheetRecord[]> {
  const columnAt = new Map<number, TUserSheetColumn>();
  const records: SheetRecord[] = [];
  await readHeadedSheet(
    ctx,
    bytes,
    { maxRows: IMPORT_MAX_ROWS, tooManyRows: ({ max, row }) => identityInvalid(ctx, 'import.tooManyRows', [FILE_MEMBER], { max, row }) },
    {
      header(titles) {
        for (const [col, title] of titles) {
          const column = columnOfTitle(title);
          if (column) columnAt.set(col, column);
        }
        const present = new Set(columnAt.values());
        const missing = REQUIRED.find((c) => !present.has(c));
        if (missing) throw identityInvalid(ctx, 'import.missingColumn', [FILE_MEMBER], { column: columnTitle(ctx, missing) });
      },
      row(row) {
        const cells: Partial<Record<TUserSheetColumn, string>> = {};
        for (const [col, column] of columnAt) cells[column] = row.getCell(col).text.trim();
        if (Object.values(cells).some((v) => v)) records.push({ row: row.number, cells });
      },
    },
  );
  if (records.length === 0) throw identityInvalid(ctx, 'import.noRows', [FILE_MEMBER]);
  return records;
}

/**
 * Imports users from the template: every row is validated first (schema, password policy, unique
 * names and e-mails in the file and the database, known roles and units) and the errors are
 * reported per row and column; if there is any, nothing is written. Otherwise all rows are
 * inserted in one transaction. `bytes` is the uploaded workbook.
 */
export async function importUsers(ctx: ServiceContext, bytes: Buffer, query: TImportUsersQuery = {}) {
  const records = await readUserRows(ctx, bytes);

  const units = unitPaths(await repo.allUnitsForLookup(ctx.db));
  const unitByKey = new Map<string, string>();
  for (const u of units) {
    unitByKey.set(u.path.toLowerCase(), u.id);
    unitByKey.set(u.code, u.id);
  }

  const errors: TImportRowError[] = [];
  const fail = (row: number, column: TUserSheetColumn, message: string) => errors.push({ row, column: columnTitle(ctx, column), message });
  const seenNames = new Map<string, number>();
  const seenEmails = new Map<string, number>();
  const valid: { row: number; user: ReturnType<typeof ZCreateUserInput.parse> }[] = [];

  for (const { row, cells } of records) {
    for (const c of REQUIRED) if (!cells[c]) fail(row, c, identityText(ctx, 'import.required'));
    // An empty cell means active.
    const isActive = cells.isActive ? parseBoolean(cells.isActive) : true;
    if (isActive === null) fail(row, 'isActive', identityText(ctx, 'import.badBoolean'));
    const organizationUnitIds: string[] = [];
    for (const key of (cells.organizationUnits ?? '').split(UNIT_SEPARATOR).map((s) => s.trim().replace(/\s*\/\s*/g, '/')).filter(Boolean)) {
      const id = unitByKey.get(key.toLowerCase()) ?? unitByKey.get(key);
      if (id) organizationUnitIds.push(id);
      else fail(row, 'organizationUnits', identityText(ctx, 'import.unknownUnit', { unit: key }));
    }
    const roleText = cells.roleNames ?? '';
    const parsed = ZCreateUserInput.safeParse({
      userName: cells.userName ?? '',
      name: cells.name ?? '',
      surname: cells.surname ?? '',
      email: cells.email ?? '',
      phoneNumber: cells.phoneNumber ?? '',
      password: cells.password ?? '',
      isActive: isActive ?? true,
      roleNames: roleText ? roleText.split(LIST_SEPARATOR).map((s) => s.trim()).filter(Boolean) : undefined,
      organizationUnitIds: [...new Set(organizationUnitIds)],
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] === 'organizationUnitIds' ? 'organizationUnits' : issue.path[0];
        const column = USER_SHEET_COLUMNS.find((c) => c === key) ?? 'userName';
        // A missing required value is reported once, as "required".
        if (REQUIRED.includes(column) && !cells[column]) continue;
        fail(row, column, localizeIssueMessage(issue, ctx.culture));
      }
      continue;
    }
    const user = parsed.data;
    const nameKey = user.userName.toLowerCase();
    if (seenNames.has(nameKey)) fail(row, 'userName', identityText(ctx, 'import.duplicateInFile', { row: seenNames.get(nameKey)! }));
    else seenNames.set(nameKey, row);
    if (user.email) {
      const emailKey = user.email.toLowerCase();
      if (seenEmails.has(emailKey)) fail(row, 'email', identityText(ctx, 'import.duplicateInFile', { row: seenEmails.get(emailKey)! }));
      else seenEmails.set(emailKey, row);
    }
    valid.push({ row, user });
  }

  // Granting the administrator role is for administrators only.
  if (!ctx.user?.isAdmin && !ctx.isSystem && valid.some((v) => v.user.roleNames?.some((n) => n.toLowerCase() === ADMIN_ROLE_NAME))) {
    throw forbidden({ reason: 'AdministratorRole' });
  }
  const checked = await checkCandidates(ctx, valid.map((v) => v.user));
  checked.forEach((result, i) => {
    for (const e of result.errors) {
      const column = (e.members[0] === 'organizationUnitIds' ? 'organizationUnits' : e.members[0]) as TUserSheetColumn;
      fail(valid[i]!.row, column, e.message);
    }
  });

  if (errors.length) {
    errors.sort((a, b) => a.row - b.row);
    const keyOf = (title: string) => USER_SHEET_COLUMNS.find((c) => columnTitle(ctx, c) === title) ?? title;
    throw validationFailure(
      identityText(ctx, 'import.invalidRows', { count: errors.length }),
      errors.map((e) => ({ message: identityText(ctx, 'import.rowError', { row: e.row, column: e.column, message: e.message }), members: [`rows.${e.row}.${keyOf(e.column)}`] })),
      { rows: errors },
    );
  }
  // Every role the rows give (named or default) and every unit: no more than the importer holds.
  await guardDelegation(ctx.db, ctx, {
    roleIds: [...new Set(checked.flatMap((c) => c.roleIds))],
    unitIds: [...new Set(valid.flatMap((v) => v.user.organizationUnitIds ?? []))],
  });

  // Hashing is the slow part: a few at a time on the thread pool, before the transaction opens.
  const hashes: string[] = new Array(valid.length);
  for (let i = 0; i < valid.length; i += 4) {
    const batch = valid.slice(i, i + 4);
    const done = await Promise.all(batch.map((v) => hashPassword(v.user.password, ctx.config.argon2)));
    done.forEach((h, j) => (hashes[i + j] = h));
  }
  const now = ctx.now();
  const created = valid.map((v, i) => ({ id: uuidv7(), user: v.user, roleIds: checked[i]!.roleIds, hash: hashes[i]! }));
  try {
    await ctx.db.transaction().execute((trx) =>
      repo.insertUsersWithMemberships(
        trx,
        created.map((c) => ({
          user: {
            id: c.id,
            user_name: c.user.userName,
            name: c.user.name,
            surname: c.user.surname,
            email: c.user.email,
            phone_number: c.user.phoneNumber,
            password_hash: c.hash,
            avatar: null,
            is_active: c.user.isActive,
            lockout_enabled: c.user.lockoutEnabled,
            lockout_end: null,
            concurrency_stamp: uuidv7(),
            creation_time: now,
            creator_id: ctx.user?.id ?? null,
            last_modification_time: null,
            last_modifier_id: null,
          },
          roleIds: c.roleIds,
          unitIds: c.user.organizationUnitIds,
        })),
      ),
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw identityInvalid(ctx, 'user.userNameTaken', [FILE_MEMBER], { userName: '' });
    throw err;
  }
  for (const c of created) {
    const { password: _password, ...after } = c.user;
    await recordAudit(ctx, 'Created', {
      entityType: 'User',
      entityId: c.id,
      details: { before: null, after: { id: c.id, ...after, roleIds: c.roleIds }, source: query.fileName ?? 'import' },
    });
  }
  return { importedCount: created.length };
}
