import type {
  TDataScope,
  TDataScopeKind,
  TDataScopeList,
  TScopeFilterCondition,
  TUpdateDataScopesInput,
} from '@tessera/core/contracts/authorization';
import { authorizationInvalid } from './authorization.messages.ts';
import { ZUpdateDataScopesInput } from '@tessera/core/contracts/authorization';
import { ADMIN_ROLE_NAME } from '../../platform/access.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { guardDelegation } from '../../platform/delegation.ts';
import { findRoleSummary, userHasRole } from '../identity/index.ts';
import * as repo from './authorization.repository.ts';

/** A page with no scope set for a role shows that role all of its rows. */
export const DEFAULT_DATA_SCOPE: TDataScopeKind = 'all';

/** From most to least permissive; `custom` stands apart (its rows are OR-ed in). */
const RANK: Record<Exclude<TDataScopeKind, 'custom'>, number> = { all: 4, unitAndBelow: 3, ownUnit: 2, own: 1 };

export interface EffectiveDataScope {
  /**
   * The widest fixed scope among the user's roles, or `custom` when every role restricts the page
   * by a custom filter only.
   */
  scope: TDataScopeKind;
  /** Custom filters of the user's roles; a row matching any of them is visible as well (not with `all`). */
  customFilters: TScopeFilterCondition[][];
}

/** Whose data scope is asked: the signed-in user's roles, as the cached access list has them. */
export interface DataScopeSubject {
  isAdmin: boolean;
  roleIds: readonly string[];
}

/**
 * The rows of a business page a user may see (for the business-data module to enforce): the most
 * permissive of their roles' scopes. Administrators, users without roles and pages without scope
 * settings: `all`. `pageKeys` are tried in order (a page's code, then its id): the first key with a
 * restriction decides. One query, whatever the number of keys.
 */
export async function dataScopeFor(db: Db, subject: DataScopeSubject, pageKeys: string | readonly string[]): Promise<EffectiveDataScope> {
  const all: EffectiveDataScope = { scope: 'all', customFilters: [] };
  if (subject.isAdmin || subject.roleIds.length === 0) return all;
  const keys = typeof pageKeys === 'string' ? [pageKeys] : pageKeys;
  const rows = await repo.dataScopesOfRolesForPages(db, subject.roleIds, keys);
  for (const key of keys) {
    const byRole = new Map(rows.filter((r) => r.page_key === key).map((r) => [r.role_id, r]));
    let best: Exclude<TDataScopeKind, 'custom'> | null = null;
    const customFilters: TScopeFilterCondition[][] = [];
    for (const roleId of subject.roleIds) {
      const setting = byRole.get(roleId);
      const scope = setting?.scope ?? DEFAULT_DATA_SCOPE;
      if (scope === 'custom') customFilters.push((setting?.custom_filter ?? []) as TScopeFilterCondition[]);
      else if (!best || RANK[scope] > RANK[best]) best = scope;
    }
    if (best !== 'all') return { scope: best ?? 'custom', customFilters };
  }
  return all;
}

async function findRole(db: Db, roleId: string) {
  const role = await findRoleSummary(db, roleId);
  if (!role) throw notFound({ roleId });
  return role;
}

const toDto = (row: { page_key: string; scope: TDataScopeKind; custom_filter: unknown[] | null }): TDataScope => ({
  pageKey: row.page_key,
  scope: row.scope,
  customFilter: (row.custom_filter as TScopeFilterCondition[] | null) ?? null,
});

export async function getDataScopes(ctx: Pick<ServiceContext, 'db'>, roleId: string): Promise<TDataScopeList> {
  const role = await findRole(ctx.db, roleId);
  const rows = await repo.dataScopesOfRole(ctx.db, roleId);
  return { roleId: role.id, roleName: role.name, items: rows.map(toDto) };
}

/** Brackets of a flat condition list must open before they close and balance at the end. */
function checkBrackets(ctx: ServiceContext, conditions: TScopeFilterCondition[], at: string) {
  let depth = 0;
  conditions.forEach((c, i) => {
    depth += (c.leftBracket ?? '').length;
    depth -= (c.rightBracket ?? '').length;
    if (depth < 0) throw authorizationInvalid(ctx, 'scope.closesBeforeOpen', [`${at}.${i}.rightBracket`]);
  });
  if (depth !== 0) throw authorizationInvalid(ctx, 'scope.unbalanced', [at]);
}

/** Replaces a role's data scopes with the given list (one transaction). */
export async function updateDataScopes(ctx: ServiceContext, roleId: string, raw: TUpdateDataScopesInput): Promise<TDataScopeList> {
  const input = ZUpdateDataScopesInput.parse(raw);
  const seen = new Set<string>();
  input.items.forEach((item, i) => {
    if (seen.has(item.pageKey)) throw authorizationInvalid(ctx, 'scope.pageTwice', [`items.${i}.pageKey`], { page: item.pageKey });
    seen.add(item.pageKey);
    if (item.scope === 'custom') {
      if (!item.customFilter?.length) throw authorizationInvalid(ctx, 'scope.customNeedsCondition', [`items.${i}.customFilter`]);
      checkBrackets(ctx, item.customFilter, `items.${i}.customFilter`);
    } else if (item.customFilter?.length) {
      throw authorizationInvalid(ctx, 'scope.onlyCustomConditions', [`items.${i}.customFilter`]);
    }
  });
  const role = await findRole(ctx.db, roleId);
  if (role.name.toLowerCase() === ADMIN_ROLE_NAME) throw authorizationInvalid(ctx, 'scope.adminRole', ['roleId']);
  // A wider scope is more power: for someone who holds all the role carries, and never their own role.
  const ownRole = !!ctx.user && (await userHasRole(ctx.db, ctx.user.id, roleId));
  await guardDelegation(ctx.db, ctx, { roleIds: [roleId], raisesOwnPower: ownRole });
  const before = await getDataScopes(ctx, roleId);
  await ctx.db.transaction().execute((trx) =>
    repo.replaceDataScopes(
      trx,
      roleId,
      input.items.map((item) => ({ pageKey: item.pageKey, scope: item.scope, customFilter: item.scope === 'custom' ? (item.customFilter ?? null) : null })),
    ),
  );
  const after = await getDataScopes(ctx, roleId);
  await recordAudit(ctx, 'Updated', {
    entityType: 'DataScope',
    entityId: roleId,
    details: { role: role.name, before: before.items, after: after.items },
  });
  return after;
}
