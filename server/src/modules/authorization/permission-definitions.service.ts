import type { Kysely, Selectable } from 'kysely';
import {
  BIZ_MENU_GROUP,
  MODULE_OWNED_GROUPS,
  type TCreatePermissionDefinitionInput,
  type TPagePermissionsInput,
  type TPermissionDefinition,
  type TPermissionDefinitionGroup,
  type TPermissionDefinitionQuery,
  type TUpdatePermissionDefinitionInput,
  ZPagePermissionsInput,
} from '@tessera/core/contracts/authorization';
import { bizPermission, type BizAction } from '@tessera/core/contracts/permissions';
import type { Database, LocalizedText, PermissionDefinitionsTable } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { localize } from '../../platform/localized-text.ts';
import { authorizationInvalid } from './authorization.messages.ts';
import * as repo from './authorization.repository.ts';

type Row = Selectable<PermissionDefinitionsTable>;

/** System codes belong to the code that guards them; business-menu codes to their menu, procedure codes to their procedure. */
const isReadOnly = (row: Pick<Row, 'is_system' | 'group_name'>) => row.is_system || MODULE_OWNED_GROUPS.includes(row.group_name);

export const toDefinitionDto = (row: Row): TPermissionDefinition => ({
  name: row.name,
  groupName: row.group_name,
  groupDisplayName: row.group_display_name,
  parentName: row.parent_name,
  displayName: row.display_name,
  isSystem: row.is_system,
  isReadOnly: isReadOnly(row),
});

export async function listDefinitions(ctx: ServiceContext, query: TPermissionDefinitionQuery) {
  const { rows, totalCount } = await repo.listDefinitions(ctx.db, query);
  return { items: rows.map(toDefinitionDto), totalCount };
}

export async function listDefinitionGroups(ctx: ServiceContext): Promise<{ items: TPermissionDefinitionGroup[] }> {
  const rows = await repo.definitionGroups(ctx.db);
  return {
    items: rows.map((r) => ({
      name: r.group_name,
      displayName: JSON.parse(r.display_name) as LocalizedText,
      isSystem: r.is_system,
      count: Number(r.count),
    })),
  };
}

export async function getDefinition(ctx: Pick<ServiceContext, 'db'>, name: string) {
  const row = await repo.findDefinition(ctx.db, name);
  if (!row) throw notFound({ name });
  return toDefinitionDto(row);
}

async function checkParent(ctx: ServiceContext, parentName: string | null | undefined, groupName: string, self?: string) {
  const db = ctx.db;
  if (!parentName) return;
  const parent = await repo.findDefinition(db, parentName);
  if (!parent) throw authorizationInvalid(ctx, 'definition.parentMissing', ['parentName'], { name: parentName });
  if (parent.group_name !== groupName) throw authorizationInvalid(ctx, 'definition.parentOtherGroup', ['parentName']);
  if (self && (await repo.definitionWithDescendants(db, self)).includes(parentName)) {
    throw authorizationInvalid(ctx, 'definition.parentCycle', ['parentName']);
  }
}

export async function createDefinition(ctx: ServiceContext, input: TCreatePermissionDefinitionInput) {
  if (MODULE_OWNED_GROUPS.some((group) => input.groupName === group || input.name.startsWith(`${group}.`))) {
    throw authorizationInvalid(ctx, 'definition.menuCodes', ['name']);
  }
  if (await repo.findDefinition(ctx.db, input.name)) throw authorizationInvalid(ctx, 'definition.exists', ['name'], { name: input.name });
  await checkParent(ctx, input.parentName, input.groupName);
  const row = {
    name: input.name,
    group_name: input.groupName,
    group_display_name: JSON.stringify(input.groupDisplayName),
    parent_name: input.parentName ?? null,
    display_name: JSON.stringify(input.displayName),
    is_system: false,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await repo.insertDefinitions(trx, [row]);
    await repo.setGroupDisplayName(trx, input.groupName, row.group_display_name);
  });
  // The administrator role holds every defined permission.
  ctx.caches.auth.invalidateAccess();
  const created = await getDefinition(ctx, input.name);
  await recordAudit(ctx, 'Created', { entityType: 'PermissionDefinition', entityId: input.name, details: { after: created } });
  return created;
}

export async function updateDefinition(
  ctx: ServiceContext,
  name: string,
  input: TUpdatePermissionDefinitionInput,
) {
  const existing = await repo.findDefinition(ctx.db, name);
  if (!existing) throw notFound({ name });
  if (isReadOnly(existing)) throw authorizationInvalid(ctx, 'definition.readOnlyEdit', ['name']);
  await checkParent(ctx, input.parentName, existing.group_name, name);
  const groupDisplayName = JSON.stringify(input.groupDisplayName);
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateDefinition(trx, name, JSON.stringify(input.displayName), input.parentName ?? null);
    await repo.setGroupDisplayName(trx, existing.group_name, groupDisplayName);
  });
  const updated = await getDefinition(ctx, name);
  await recordAudit(ctx, 'Updated', {
    entityType: 'PermissionDefinition',
    entityId: name,
    details: { before: toDefinitionDto(existing), after: updated },
  });
  return updated;
}

/** Deletes a designer-defined permission, the permissions under it and every grant of them. */
export async function deleteDefinition(ctx: ServiceContext, name: string) {
  const existing = await repo.findDefinition(ctx.db, name);
  if (!existing) throw notFound({ name });
  if (isReadOnly(existing)) throw authorizationInvalid(ctx, 'definition.readOnlyDelete', ['name']);
  const names = await ctx.db.transaction().execute(async (trx) => {
    const all = await repo.definitionWithDescendants(trx, name);
    await repo.deleteDefinitions(trx, all);
    return all;
  });
  ctx.caches.auth.invalidateAccess();
  await recordAudit(ctx, 'Deleted', {
    entityType: 'PermissionDefinition',
    entityId: name,
    details: { before: toDefinitionDto(existing), deleted: names },
  });
}

const suffix = (text: LocalizedText, zh: string, other: string): LocalizedText =>
  Object.fromEntries(Object.entries(text).map(([culture, value]) => [culture, `${value}${culture.startsWith('zh') ? zh : other}`]));

/** The definitions of one business page (`bizPermission`): access, each button, view/edit per field. */
const ACTION_NAMES: Record<BizAction, LocalizedText> = {
  add: { 'zh-CN': '新增', 'en-US': 'Add' },
  edit: { 'zh-CN': '编辑', 'en-US': 'Edit' },
  delete: { 'zh-CN': '删除', 'en-US': 'Delete' },
  import: { 'zh-CN': '导入', 'en-US': 'Import' },
  export: { 'zh-CN': '导出', 'en-US': 'Export' },
};

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
    ...[...new Set(page.actions)].map((a) => row(bizPermission.action(page.pageCode, a), ACTION_NAMES[a], access)),
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

export async function createPagePermissions(ctx: ServiceContext, input: TPagePermissionsInput) {
  const page = ZPagePermissionsInput.parse(input);
  const reserved = new Set(['Access', 'Field', 'Action']);
  page.buttons.forEach((b, i) => {
    if (reserved.has(b.code)) throw authorizationInvalid(ctx, 'page.reservedCode', [`buttons.${i}.code`], { code: b.code });
    if (page.buttons.findIndex((o) => o.code === b.code) !== i) throw authorizationInvalid(ctx, 'page.buttonTwice', [`buttons.${i}.code`], { code: b.code });
  });
  page.fields.forEach((f, i) => {
    if (page.fields.findIndex((o) => o.code === f.code) !== i) throw authorizationInvalid(ctx, 'page.fieldTwice', [`fields.${i}.code`], { code: f.code });
  });
  const result = await ctx.db.transaction().execute((trx) => ensurePagePermissions(trx, page));
  ctx.caches.auth.invalidateAccess();
  await recordAudit(ctx, 'Created', { entityType: 'PermissionDefinition', entityId: `Biz.${page.pageCode}`, details: { after: result } });
  return result;
}

// ---------------------------------------------------------------- for the business-menu module

/** Creates or renames a code a module owns (in one of MODULE_OWNED_GROUPS); the caller passes its transaction. */
export async function saveOwnedPermission(
  db: Kysely<Database>,
  def: { name: string; group: { name: string; displayName: LocalizedText }; displayName: LocalizedText; parentName: string | null },
) {
  await repo.upsertDefinition(db, {
    name: def.name,
    group_name: def.group.name,
    group_display_name: JSON.stringify(def.group.displayName),
    parent_name: def.parentName,
    display_name: JSON.stringify(def.displayName),
    is_system: false,
  });
}

/** Creates or renames a business menu's code (group Biz.Menu); the caller passes its transaction. */
export const saveMenuPermission = (db: Kysely<Database>, def: { name: string; displayName: LocalizedText; parentName: string | null }) =>
  saveOwnedPermission(db, { ...def, group: { name: BIZ_MENU_GROUP, displayName: { 'zh-CN': '业务菜单', 'en-US': 'Business menus' } } });

/** Removes codes and their grants (a deleted menu's codes). */
export const removePermissions = (db: Kysely<Database>, names: string[]) => repo.deleteDefinitions(db, names);

/** Removes the designer-made codes of a group and their grants (a deleted page's); returns the codes. */
export async function removePermissionGroup(db: Kysely<Database>, group: string): Promise<string[]> {
  const names = await repo.designerCodesOfGroup(db, group);
  await repo.deleteDefinitions(db, names);
  return names;
}

/**
 * The defined codes among `codes`, grouped as the definitions are and named in the caller's
 * language (what a user may hand on to a personal API key).
 */
export async function definitionGroupsAmong(ctx: ServiceContext, codes: ReadonlySet<string>) {
  const groups = new Map<string, { name: string; displayName: string; permissions: { name: string; displayName: string; parentName: string | null }[] }>();
  for (const def of await repo.listAllDefinitions(ctx.db)) {
    if (!codes.has(def.name)) continue;
    let group = groups.get(def.group_name);
    if (!group) {
      group = { name: def.group_name, displayName: localize(def.group_display_name, ctx.acceptLanguage) || def.group_name, permissions: [] };
      groups.set(def.group_name, group);
    }
    group.permissions.push({ name: def.name, displayName: localize(def.display_name, ctx.acceptLanguage) || def.name, parentName: def.parent_name });
  }
  return [...groups.values()];
}
