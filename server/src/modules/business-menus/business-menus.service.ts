import { actorHolds, type ServiceContext } from '../../platform/context.ts';
import type { Kysely, Selectable } from 'kysely';
import { uuidv7 } from '../../platform/ids.ts';
import type {
  TBusinessMenu,
  TBusinessMenuInput,
  TBusinessMenuList,
  TBusinessMenuQuery,
  TMoveBusinessMenuInput,
  TPageMenuInput,
  TPageMenuResult,
} from '@tessera/core/contracts/business-menus';
import { ZPageMenuInput } from '@tessera/core/contracts/business-menus';
import { bizPermission, P } from '@tessera/core/contracts/permissions';
import type { BusinessMenusTable, Database } from '../../db/schema.ts';
import type { RequestUser } from '../../platform/auth.ts';
import { recordAudit } from '../../platform/audit.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import { pageWindow } from '../../platform/paging.ts';
import { auditRoleGrants, grantToRolesWithin, pageCodesFor, removePermissions, saveMenuPermission } from '../authorization/index.ts';
import { getPublishedPageDefinition } from '../pages/index.ts';
import { menusInvalid } from './business-menus.messages.ts';
import * as repo from './business-menus.repository.ts';

type Row = Selectable<BusinessMenusTable>;
type Viewer = Pick<RequestUser, 'isAdmin' | 'access'>;
/** The menu service reading back what it just wrote (the writer may not hold the menu's code). */
const EVERY_MENU: Viewer = { isAdmin: true, access: new Set() };

const toNode = (row: Row): TBusinessMenu => ({
  id: row.id,
  title: row.title,
  url: row.url,
  associateKey: row.associate_key,
  parentId: row.parent_id,
  order: row.sort_order,
  pageDefinitionId: row.page_definition_id,
  isJump: row.is_jump,
  permissionCode: row.permission_code,
  concurrencyStamp: row.concurrency_stamp,
  subBusinessMenus: [],
});

/**
 * Every signed-in page load asks for the caller's menus, so each node keeps the (small) menu table
 * in memory: writes here drop it at once, another node's writes show within the TTL (like the
 * access cache in platform/access.ts).
 */
const MENU_CACHE_TTL_MS = 5_000;
const menuCache = new WeakMap<Kysely<Database>, { rows: Promise<Row[]>; at: number }>();

function cachedMenus(db: Kysely<Database>): Promise<Row[]> {
  const hit = menuCache.get(db);
  if (hit && Date.now() - hit.at < MENU_CACHE_TTL_MS) return hit.rows;
  const rows = repo.listAllMenus(db);
  menuCache.set(db, { rows, at: Date.now() });
  rows.catch(() => menuCache.delete(db));
  return rows;
}

const invalidateMenus = (db: Kysely<Database>) => menuCache.delete(db);

/** Builds the tree; with a viewer, a menu shows only if they hold its code and can see its parent. */
function buildTree(rows: Row[], viewer: Viewer | null): TBusinessMenu[] {
  const nodes = new Map(rows.map((r) => [r.id, toNode(r)]));
  const roots: TBusinessMenu[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id)!;
    const parent = row.parent_id ? nodes.get(row.parent_id) : undefined;
    (parent ? parent.subBusinessMenus : roots).push(node);
  }
  if (!viewer || viewer.isAdmin) return roots;
  const prune = (list: TBusinessMenu[]): TBusinessMenu[] =>
    list.filter((m) => viewer.access.has(m.permissionCode)).map((m) => ({ ...m, subBusinessMenus: prune(m.subBusinessMenus) }));
  return prune(roots);
}

/** Keeps menus whose title (any language) contains the text, with their parents and sub-menus. */
function filterTree(list: TBusinessMenu[], text: string): TBusinessMenu[] {
  const needle = text.toLowerCase();
  const out: TBusinessMenu[] = [];
  for (const m of list) {
    if (Object.values(m.title).some((t) => t.toLowerCase().includes(needle))) out.push(m);
    else {
      const children = filterTree(m.subBusinessMenus, text);
      if (children.length) out.push({ ...m, subBusinessMenus: children });
    }
  }
  return out;
}

function page(tree: TBusinessMenu[], query: TBusinessMenuQuery): TBusinessMenuList {
  const filtered = query.Filter?.trim() ? filterTree(tree, query.Filter.trim()) : tree;
  const { offset, limit } = pageWindow({ ...query, Sorting: undefined });
  return { items: filtered.slice(offset, offset + limit), totalCount: filtered.length };
}

/** The business menus a signed-in user may open (spec §2 /menu/{id}), for the runtime sider as well. */
export async function listVisibleMenus(db: Kysely<Database>, viewer: Viewer): Promise<TBusinessMenu[]> {
  return buildTree(await cachedMenus(db), viewer);
}

export async function listMenus(db: Kysely<Database>, viewer: Viewer | null, query: TBusinessMenuQuery) {
  return page(buildTree(await cachedMenus(db), viewer), query);
}

function findInTree(list: TBusinessMenu[], id: string): TBusinessMenu | undefined {
  for (const m of list) {
    if (m.id === id) return m;
    const hit = findInTree(m.subBusinessMenus, id);
    if (hit) return hit;
  }
  return undefined;
}

/** Menu managers see every menu; anyone else the menus their access shows them. */
export async function getMenu(db: Kysely<Database>, viewer: Viewer, id: string): Promise<TBusinessMenu> {
  const manager = viewer.isAdmin || viewer.access.has(P.Menus);
  const menu = findInTree(buildTree(await cachedMenus(db), manager ? null : viewer), id);
  if (!menu) throw notFound({ id });
  return menu;
}

async function checkParent(ctx: ServiceContext, parentId: string | null, self?: string) {
  if (!parentId) return null;
  const rows = await repo.listAllMenus(ctx.db);
  const parent = rows.find((r) => r.id === parentId);
  if (!parent) throw menusInvalid(ctx, 'parent.missing', ['parentId']);
  if (self) {
    // Walk up from the new parent: meeting the menu itself means a cycle.
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (let at: Row | undefined = parent; at; at = at.parent_id ? byId.get(at.parent_id) : undefined) {
      if (at.id === self) throw menusInvalid(ctx, 'parent.cycle', ['parentId']);
    }
  }
  return parent;
}

/** Inserts a menu and its code in the caller's transaction; returns its id and code. */
async function insertMenu(ctx: ServiceContext, trx: Kysely<Database>, input: TBusinessMenuInput, parent: Row | null) {
  const id = uuidv7();
  const code = bizPermission.menu(id);
  const siblings = await repo.siblingsOf(trx, parent?.id ?? null);
  const order = input.order ?? (siblings.length ? Math.max(...siblings.map((s) => s.sort_order)) + 1 : 0);
  await repo.insertMenu(trx, {
    id,
    parent_id: parent?.id ?? null,
    title: JSON.stringify(input.title),
    url: input.url ?? null,
    associate_key: input.associateKey || null,
    sort_order: order,
    page_definition_id: input.pageDefinitionId ?? null,
    is_jump: input.isJump ?? false,
    permission_code: code,
    concurrency_stamp: uuidv7(),
    creator_id: ctx.user?.id ?? null,
    last_modification_time: null,
    last_modifier_id: null,
  });
  await saveMenuPermission(trx, { name: code, displayName: input.title, parentName: parent?.permission_code ?? null });
  return { id, code };
}

/** After a menu was written: caches, and the menu as the response (read back with every right). */
async function afterMenuCreated(ctx: ServiceContext, id: string) {
  invalidateMenus(ctx.db);
  // A new code: the administrators' access (every code) changes.
  ctx.caches.auth.invalidateAccess();
  const created = await getMenu(ctx.db, EVERY_MENU, id);
  await recordAudit(ctx, 'Created', { entityType: 'BusinessMenu', entityId: id, details: { after: withoutChildren(created) } });
  return created;
}

export async function createMenu(ctx: ServiceContext, input: TBusinessMenuInput) {
  const parent = await checkParent(ctx, input.parentId ?? null);
  const { id } = await ctx.db.transaction().execute((trx) => insertMenu(ctx, trx, input, parent));
  return afterMenuCreated(ctx, id);
}

/**
 * A business menu opening a published page, granted to roles in one transaction (all or nothing):
 * the roles receive the menu's code, the codes of the menus above it, and the page's codes for the
 * chosen use. The grant screen's rules apply (`grantToRolesWithin`); granting needs the grant right.
 */
export async function createMenuForPage(ctx: ServiceContext, raw: TPageMenuInput): Promise<TPageMenuResult> {
  const input = ZPageMenuInput.parse(raw);
  if (input.roleIds.length > 0 && !actorHolds(ctx, P.PermissionsGrant)) throw forbidden({ permission: P.PermissionsGrant });
  const published = await getPublishedPageDefinition(ctx.db, input.pageDefinitionId);
  if (!published) throw menusInvalid(ctx, 'page.notPublished', ['pageDefinitionId']);
  const parent = await checkParent(ctx, input.parentId ?? null);
  const ancestors = parent ? menuCodesUpFrom(await repo.listAllMenus(ctx.db), parent) : [];
  const { id, grants } = await ctx.db.transaction().execute(async (trx) => {
    const menu = await insertMenu(ctx, trx, { title: input.title, url: input.url, parentId: input.parentId, pageDefinitionId: input.pageDefinitionId }, parent);
    const codes = [menu.code, ...ancestors, ...(await pageCodesFor(trx, published.page.code, input.use))];
    return { id: menu.id, grants: await grantToRolesWithin(ctx, trx, input.roleIds, codes, [menu.code]) };
  });
  const menu = await afterMenuCreated(ctx, id);
  await auditRoleGrants(ctx, grants);
  return { menu, grants };
}

/** The codes of a menu and every menu above it. */
function menuCodesUpFrom(rows: Row[], from: Row): string[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const codes: string[] = [];
  for (let at: Row | undefined = from; at; at = at.parent_id ? byId.get(at.parent_id) : undefined) codes.push(at.permission_code);
  return codes;
}

const withoutChildren = ({ subBusinessMenus: _children, ...menu }: TBusinessMenu) => menu;

export async function updateMenu(ctx: ServiceContext, id: string, input: TBusinessMenuInput) {
  const existing = await repo.findMenu(ctx.db, id);
  if (!existing) throw notFound({ id });
  if (input.concurrencyStamp && input.concurrencyStamp !== existing.concurrency_stamp) throw conflict({ id });
  const parentId = input.parentId === undefined ? existing.parent_id : input.parentId;
  const parent = await checkParent(ctx, parentId, id);
  const moved = parentId !== existing.parent_id;
  await ctx.db.transaction().execute(async (trx) => {
    let order = input.order ?? existing.sort_order;
    if (moved && input.order === undefined) {
      const siblings = await repo.siblingsOf(trx, parentId);
      order = siblings.length ? Math.max(...siblings.map((s) => s.sort_order)) + 1 : 0;
    }
    await repo.updateMenu(trx, id, {
      parent_id: parentId,
      title: JSON.stringify(input.title),
      url: input.url === undefined ? existing.url : input.url,
      associate_key: input.associateKey === undefined ? existing.associate_key : input.associateKey || null,
      sort_order: order,
      page_definition_id: input.pageDefinitionId === undefined ? existing.page_definition_id : input.pageDefinitionId,
      is_jump: input.isJump ?? existing.is_jump,
      concurrency_stamp: uuidv7(),
      last_modification_time: new Date(),
      last_modifier_id: ctx.user?.id ?? null,
    });
    await saveMenuPermission(trx, { name: existing.permission_code, displayName: input.title, parentName: parent?.permission_code ?? null });
  });
  invalidateMenus(ctx.db);
  const updated = await getMenu(ctx.db, EVERY_MENU, id);
  await recordAudit(ctx, 'Updated', {
    entityType: 'BusinessMenu',
    entityId: id,
    details: { before: withoutChildren(toNode(existing)), after: withoutChildren(updated) },
  });
  return updated;
}

/** Drag and drop: re-parents the menu and renumbers the siblings it leaves and joins. */
export async function moveMenu(ctx: ServiceContext, id: string, input: TMoveBusinessMenuInput) {
  const existing = await repo.findMenu(ctx.db, id);
  if (!existing) throw notFound({ id });
  const parent = await checkParent(ctx, input.parentId, id);
  await ctx.db.transaction().execute(async (trx) => {
    if (existing.parent_id !== input.parentId) {
      const left = (await repo.siblingsOf(trx, existing.parent_id)).filter((s) => s.id !== id);
      for (const [i, s] of left.entries()) if (s.sort_order !== i) await repo.setOrder(trx, s.id, i);
    }
    const siblings = (await repo.siblingsOf(trx, input.parentId)).filter((s) => s.id !== id);
    const index = Math.min(input.index, siblings.length);
    siblings.splice(index, 0, { id, sort_order: -1 });
    for (const [i, s] of siblings.entries()) if (s.id !== id && s.sort_order !== i) await repo.setOrder(trx, s.id, i);
    await repo.updateMenu(trx, id, {
      parent_id: input.parentId,
      sort_order: index,
      concurrency_stamp: uuidv7(),
      last_modification_time: new Date(),
      last_modifier_id: ctx.user?.id ?? null,
    });
    if (existing.parent_id !== input.parentId) {
      await saveMenuPermission(trx, { name: existing.permission_code, displayName: existing.title, parentName: parent?.permission_code ?? null });
    }
  });
  invalidateMenus(ctx.db);
  const moved = await getMenu(ctx.db, EVERY_MENU, id);
  await recordAudit(ctx, 'Updated', {
    entityType: 'BusinessMenu',
    entityId: id,
    details: {
      before: { parentId: existing.parent_id, order: existing.sort_order },
      after: { parentId: moved.parentId, order: moved.order },
    },
  });
  return moved;
}

const flatten = (m: TBusinessMenu): TBusinessMenu[] => [m, ...m.subBusinessMenus.flatMap(flatten)];

/** Deletes the menu with its sub-menus, their permission codes and every grant of them. */
export async function deleteMenu(ctx: ServiceContext, id: string) {
  const menu = findInTree(buildTree(await repo.listAllMenus(ctx.db), null), id);
  if (!menu) throw notFound({ id });
  const all = flatten(menu);
  await ctx.db.transaction().execute(async (trx) => {
    await repo.deleteMenu(trx, id);
    await removePermissions(trx, all.map((m) => m.permissionCode));
  });
  invalidateMenus(ctx.db);
  ctx.caches.auth.invalidateAccess();
  await recordAudit(ctx, 'Deleted', {
    entityType: 'BusinessMenu',
    entityId: id,
    details: { before: withoutChildren(menu), deletedMenus: all.map((m) => ({ id: m.id, title: m.title })) },
  });
}
