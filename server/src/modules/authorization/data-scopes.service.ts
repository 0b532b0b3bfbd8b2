import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type {
  TDataScope,
  TDataScopeKind,
  TDataScopeList,
  TScopeFilterCondition,
  TUpdateDataScopesInput,
} from '@tessera/core/contracts/authorization';
import { ZUpdateDataScopesInput } from '@tessera/core/contracts/authorization';
import type { Database } from '../../db/schema.ts';
import { ADMIN_ROLE_NAME } from '../../platform/access.ts';
import { recordAudit } from '../../platform/audit.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { guardDelegation } from '../../platform/delegation.ts';

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

/**
 * The rows of a business page a user may see (for the business-data module to enforce): the most
 * permissive of their roles' scopes. Administrators and pages without scope settings: `all`.
 */
export async function dataScopeFor(db: Kysely<Database>, userId: string, pageKey: string): Promise<EffectiveDataScope> {
  const roles = await db
    .selectFrom('user_roles as ur')
    .innerJoin('roles as r', 'r.id', 'ur.role_id')
    .leftJoin('data_scopes as ds', (join) => join.onRef('ds.role_id', '=', 'r.id').on('ds.page_key', '=', pageKey))
    .select(['r.name', 'ds.scope', 'ds.custom_filter'])
    .where('ur.user_id', '=', userId)
    .execute();
  if (roles.length === 0 || roles.some((r) => r.name.toLowerCase() === ADMIN_ROLE_NAME)) return { scope: 'all', customFilters: [] };
  let best: Exclude<TDataScopeKind, 'custom'> | null = null;
  const customFilters: TScopeFilterCondition[][] = [];
  for (const role of roles) {
    const scope = role.scope ?? DEFAULT_DATA_SCOPE;
    if (scope === 'custom') customFilters.push((role.custom_filter ?? []) as TScopeFilterCondition[]);
    else if (!best || RANK[scope] > RANK[best]) best = scope;
  }
  if (best === 'all') return { scope: 'all', customFilters: [] };
  return { scope: best ?? 'custom', customFilters };
}

async function findRole(db: Kysely<Database>, roleId: string) {
  const role = await db.selectFrom('roles').select(['id', 'name']).where('id', '=', roleId).executeTakeFirst();
  if (!role) throw notFound({ roleId });
  return role;
}

const toDto = (row: { page_key: string; scope: TDataScopeKind; custom_filter: unknown[] | null }): TDataScope => ({
  pageKey: row.page_key,
  scope: row.scope,
  customFilter: (row.custom_filter as TScopeFilterCondition[] | null) ?? null,
});

export async function getDataScopes(db: Kysely<Database>, roleId: string): Promise<TDataScopeList> {
  const role = await findRole(db, roleId);
  const rows = await db.selectFrom('data_scopes').selectAll().where('role_id', '=', roleId).orderBy('page_key').execute();
  return { roleId: role.id, roleName: role.name, items: rows.map(toDto) };
}

/** Brackets of a flat condition list must open before they close and balance at the end. */
function checkBrackets(conditions: TScopeFilterCondition[], at: string) {
  let depth = 0;
  conditions.forEach((c, i) => {
    depth += (c.leftBracket ?? '').length;
    depth -= (c.rightBracket ?? '').length;
    if (depth < 0) throw invalid('A bracket closes before it opens', [`${at}.${i}.rightBracket`]);
  });
  if (depth !== 0) throw invalid('Brackets do not balance', [at]);
}

/** Replaces a role's data scopes with the given list (one transaction). */
export async function updateDataScopes(
  app: FastifyInstance,
  request: FastifyRequest,
  roleId: string,
  raw: TUpdateDataScopesInput,
): Promise<TDataScopeList> {
  const input = ZUpdateDataScopesInput.parse(raw);
  const seen = new Set<string>();
  input.items.forEach((item, i) => {
    if (seen.has(item.pageKey)) throw invalid(`Page ${item.pageKey} is listed twice`, [`items.${i}.pageKey`]);
    seen.add(item.pageKey);
    if (item.scope === 'custom') {
      if (!item.customFilter?.length) throw invalid('A custom scope needs at least one condition', [`items.${i}.customFilter`]);
      checkBrackets(item.customFilter, `items.${i}.customFilter`);
    } else if (item.customFilter?.length) {
      throw invalid('Only a custom scope takes conditions', [`items.${i}.customFilter`]);
    }
  });
  const role = await findRole(app.db, roleId);
  if (role.name.toLowerCase() === ADMIN_ROLE_NAME) throw invalid('The administrator role always sees all data', ['roleId']);
  // A wider scope is more power: for someone who holds all the role carries, and never their own role.
  const ownRole = await app.db.selectFrom('user_roles').select('role_id').where('user_id', '=', request.user!.id).where('role_id', '=', roleId).executeTakeFirst();
  await guardDelegation(app.db, request, { roleIds: [roleId], raisesOwnPower: !!ownRole });
  const before = await getDataScopes(app.db, roleId);
  await app.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('data_scopes').where('role_id', '=', roleId).execute();
    if (input.items.length === 0) return;
    await trx
      .insertInto('data_scopes')
      .values(
        input.items.map((item) => ({
          id: uuidv7(),
          role_id: roleId,
          page_key: item.pageKey,
          scope: item.scope,
          custom_filter: item.scope === 'custom' ? JSON.stringify(item.customFilter) : null,
        })),
      )
      .execute();
  });
  const after = await getDataScopes(app.db, roleId);
  await recordAudit(request, 'Updated', {
    entityType: 'DataScope',
    entityId: roleId,
    details: { role: role.name, before: before.items, after: after.items },
  });
  return after;
}
