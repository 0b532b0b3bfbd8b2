import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import {
  BIZ_MENU_GROUP,
  type TCreatePermissionDefinitionInput,
  type TPagePermissionsInput,
  type TPermissionDefinition,
  type TPermissionDefinitionGroup,
  type TPermissionDefinitionQuery,
  type TUpdatePermissionDefinitionInput,
  ZPagePermissionsInput,
} from '@tessera/core/contracts/authorization';
import { bizPermission } from '@tessera/core/contracts/permissions';
import type { Database, LocalizedText, PermissionDefinitionsTable } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { pageWindow, parseSorting } from '../../platform/paging.ts';
import * as repo from './authorization.repository.ts';

type Row = Selectable<PermissionDefinitionsTable>;

/** System codes belong to the code that guards them; business-menu codes to their menu. */
const isReadOnly = (row: Pick<Row, 'is_system' | 'group_name'>) => row.is_system || row.group_name === BIZ_MENU_GROUP;

export const toDefinitionDto = (row: Row): TPermissionDefinition => ({
  name: row.name,
  groupName: row.group_name,
  groupDisplayName: row.group_display_name,
  parentName: row.parent_name,
  displayName: row.display_name,
  isSystem: row.is_system,
  isReadOnly: isReadOnly(row),
});

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listDefinitions(db: Kysely<Database>, query: TPermissionDefinitionQuery) {
  let q = db.selectFrom('permission_definitions');
  if (query.GroupName) q = q.where('group_name', '=', query.GroupName);
  if (query.IsSystem) q = q.where('is_system', '=', query.IsSystem === 'true');
  if (query.Filter?.trim()) {
    const like = `%${escapeLike(query.Filter.trim())}%`;
    q = q.where((eb) =>
      eb.or([eb('name', 'ilike', like), eb(eb.cast('display_name', 'text'), 'ilike', like), eb('group_name', 'ilike', like)]),
    );
  }
  const sort = parseSorting(query.Sorting, { name: 'name', groupname: 'group_name' }, { column: 'name', direction: 'asc' });
  const { offset, limit } = pageWindow(query);
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy(sort.column, sort.direction).orderBy('name').offset(offset).limit(limit).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toDefinitionDto), totalCount: Number(total.count) };
}

export async function listDefinitionGroups(db: Kysely<Database>): Promise<{ items: TPermissionDefinitionGroup[] }> {
  const rows = await db
    .selectFrom('permission_definitions')
    .select((eb) => [
      'group_name',
      eb.fn.max<string>(eb.cast('group_display_name', 'text')).as('display_name'),
      eb.fn<boolean>('bool_or', ['is_system']).as('is_system'),
      eb.fn.countAll<number>().as('count'),
    ])
    .groupBy('group_name')
    .orderBy((eb) => eb.fn<boolean>('bool_or', ['is_system']), 'desc')
    .orderBy('group_name')
    .execute();
  return {
    items: rows.map((r) => ({
      name: r.group_name,
      displayName: JSON.parse(r.display_name) as LocalizedText,
      isSystem: r.is_system,
      count: Number(r.count),
    })),
  };
}

export async function getDefinition(db: Kysely<Database>, name: string) {
  const row = await repo.findDefinition(db, name);
  if (!row) throw notFound({ name });
  return toDefinitionDto(row);
}

async function checkParent(db: Kysely<Database>, parentName: string | null | undefined, groupName: string, self?: string) {
  if (!parentName) return;
  const parent = await repo.findDefinition(db, parentName);
  if (!parent) throw invalid(`Parent permission ${parentName} does not exist`, ['parentName']);
  if (parent.group_name !== groupName) throw invalid('The parent must be in the same group', ['parentName']);
  if (self && (await repo.definitionWithDescendants(db, self)).includes(parentName)) {
    throw invalid('A permission cannot be placed under itself or its own children', ['parentName']);
  }
}

export async function createDefinition(app: FastifyInstance, request: FastifyRequest, input: TCreatePermissionDefinitionInput) {
  if (input.groupName === BIZ_MENU_GROUP || input.name.startsWith(`${BIZ_MENU_GROUP}.`)) {
    throw invalid('Business-menu permissions are created with their menu', ['name']);
  }
  if (await repo.findDefinition(app.db, input.name)) throw invalid(`Permission ${input.name} already exists`, ['name']);
  await checkParent(app.db, input.parentName, input.groupName);
  const row = {
    name: input.name,
    group_name: input.groupName,
    group_display_name: JSON.stringify(input.groupDisplayName),
    parent_name: input.parentName ?? null,
    display_name: JSON.stringify(input.displayName),
    is_system: false,
  };
  await app.db.transaction().execute(async (trx) => {
    await repo.insertDefinitions(trx, [row]);
    await repo.setGroupDisplayName(trx, input.groupName, row.group_display_name);
  });
  // The administrator role holds every defined permission.
  app.authCache.invalidateAccess();
  const created = await getDefinition(app.db, input.name);
  await recordAudit(request, 'Created', { entityType: 'PermissionDefinition', entityId: input.name, details: { after: created } });
  return created;
}

export async function updateDefinition(
  app: FastifyInstance,
  request: FastifyRequest,
  name: string,
  input: TUpdatePermissionDefinitionInput,
) {
  const existing = await repo.findDefinition(app.db, name);
  if (!existing) throw notFound({ name });
  if (isReadOnly(existing)) throw invalid('System and business-menu permissions cannot be edited here', ['name']);
  await checkParent(app.db, input.parentName, existing.group_name, name);
  const groupDisplayName = JSON.stringify(input.groupDisplayName);
  await app.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('permission_definitions')
      .set({ display_name: JSON.stringify(input.displayName), parent_name: input.parentName ?? null })
      .where('name', '=', name)
      .execute();
    await repo.setGroupDisplayName(trx, existing.group_name, groupDisplayName);
  });
  const updated = await getDefinition(app.db, name);
  await recordAudit(request, 'Updated', {
    entityType: 'PermissionDefinition',
    entityId: name,
    details: { before: toDefinitionDto(existing), after: updated },
  });
  return updated;
}

/** Deletes a designer-defined permission, the permissions under it and every grant of them. */
export async function deleteDefinition(app: FastifyInstance, request: FastifyRequest, name: string) {
  const existing = await repo.findDefinition(app.db, name);
  if (!existing) throw notFound({ name });
  if (isReadOnly(existing)) throw invalid('System and business-menu permissions cannot be deleted here', ['name']);
  const names = await app.db.transaction().execute(async (trx) => {
    const all = await repo.definitionWithDescendants(trx, name);
    await repo.deleteDefinitions(trx, all);
    return all;
  });
  app.authCache.invalidateAccess();
  await recordAudit(request, 'Deleted', {
    entityType: 'PermissionDefinition',
    entityId: name,
    details: { before: toDefinitionDto(existing), deleted: names },
  });
}

const suffix = (text: LocalizedText, zh: string, other: string): LocalizedText =>
  Object.fromEntries(Object.entries(text).map(([culture, value]) => [culture, `${value}${culture.startsWith('zh') ? zh : other}`]));

/** The definitions of one business page (`bizPermission`): access, each button, view/edit per field. */
export function pagePermissionRows(input: TPagePermissionsInput) {
  const page = ZPagePermissionsInput.parse(input);
  const group = `Biz.${page.pageCode}`;
  const access = bizPermission.access(page.pageCode);
  const groupDisplayName = JSON.stringify(page.displayName);
  const row = (name: string, displayName: LocalizedText, parentName: string | null) => ({
    name,
    group_name: group,
    group_display_name: groupDisplayName,
    parent_name: parentName,
    display_name: JSON.stringify(displayName),
    is_system: false,
  });
  return [
    row(access, { 'zh-CN': '访问页面', 'en-US': 'Open the page' }, null),
    ...page.buttons.map((b) => row(bizPermission.button(page.pageCode, b.code), b.displayName, access)),
    ...page.fields.flatMap((f) => [
      row(bizPermission.fieldView(page.pageCode, f.code), suffix(f.displayName, '（查看）', ' (view)'), access),
      row(bizPermission.fieldEdit(page.pageCode, f.code), suffix(f.displayName, '（编辑）', ' (edit)'), access),
    ]),
  ];
}

/**
 * Creates the page's missing codes and keeps existing ones (grants stay); for the page designer too,
 * which calls it inside its own publishing transaction.
 */
export async function ensurePagePermissions(db: Kysely<Database>, input: TPagePermissionsInput) {
  const rows = pagePermissionRows(input);
  const existing = await repo.definitionNames(db, rows.map((r) => r.name));
  const missing = rows.filter((r) => !existing.has(r.name));
  await repo.insertDefinitions(db, missing);
  await repo.setGroupDisplayName(db, rows[0]!.group_name, rows[0]!.group_display_name);
  return { created: missing.map((r) => r.name), existing: rows.filter((r) => existing.has(r.name)).map((r) => r.name) };
}

export async function createPagePermissions(app: FastifyInstance, request: FastifyRequest, input: TPagePermissionsInput) {
  const page = ZPagePermissionsInput.parse(input);
  const reserved = new Set(['Access', 'Field']);
  page.buttons.forEach((b, i) => {
    if (reserved.has(b.code)) throw invalid(`${b.code} is reserved for the page's own codes`, [`buttons.${i}.code`]);
    if (page.buttons.findIndex((o) => o.code === b.code) !== i) throw invalid(`Button ${b.code} is listed twice`, [`buttons.${i}.code`]);
  });
  page.fields.forEach((f, i) => {
    if (page.fields.findIndex((o) => o.code === f.code) !== i) throw invalid(`Field ${f.code} is listed twice`, [`fields.${i}.code`]);
  });
  const result = await app.db.transaction().execute((trx) => ensurePagePermissions(trx, page));
  app.authCache.invalidateAccess();
  await recordAudit(request, 'Created', { entityType: 'PermissionDefinition', entityId: `Biz.${page.pageCode}`, details: { after: result } });
  return result;
}

// ---------------------------------------------------------------- for the business-menu module

/** Creates or renames a business menu's code (group Biz.Menu); the caller passes its transaction. */
export async function saveMenuPermission(
  db: Kysely<Database>,
  def: { name: string; displayName: LocalizedText; parentName: string | null },
) {
  const values = {
    name: def.name,
    group_name: BIZ_MENU_GROUP,
    group_display_name: JSON.stringify({ 'zh-CN': '业务菜单', 'en-US': 'Business menus' }),
    parent_name: def.parentName,
    display_name: JSON.stringify(def.displayName),
    is_system: false,
  };
  await db
    .insertInto('permission_definitions')
    .values(values)
    .onConflict((oc) => oc.column('name').doUpdateSet({ display_name: values.display_name, parent_name: values.parent_name }))
    .execute();
}

/** Removes codes and their grants (a deleted menu's codes). */
export const removePermissions = (db: Kysely<Database>, names: string[]) => repo.deleteDefinitions(db, names);
