import type { Kysely, RawBuilder } from 'kysely';
import { countFilterOperands, MAX_SCOPE_OPERANDS, parseFilterConditions } from '@tessera/core/filters/index';
import type { Database } from '../../db/schema.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { dataScopeFor } from '../authorization/index.ts';
import * as repo from './business-data.repository.ts';
import { compileFilterSql, filterFieldsOf } from './filter-sql.ts';
import type { RuntimePage } from './runtime-page.ts';

/*
 * Row-level data scopes (authorization module, per role and page) as one SQL condition (built by
 * the repository) on the
 * master view's table. Child rows are reached only through a master record in scope. The scope
 * is looked up by page code (the data-scope editor's page key), then by page id.
 *   all            no condition
 *   own            "CreatorId" = the user
 *   ownUnit        "OwnerOrganizationUnitId" in the user's units
 *   unitAndBelow   … in the user's units and every unit below them (materialised path)
 *   custom         the roles' custom filters, OR-ed (with the widest fixed scope when there is one)
 * An administrator and the system itself (`systemContext`) see every row; an anonymous caller none.
 * `db` is the connection to read the scope on: the caller's transaction inside a save.
 */

export interface ScopeCondition {
  /** Null: every row. */
  where: RawBuilder<unknown> | null;
  kind: string;
}

export async function scopeConditionFor(
  ctx: Pick<ServiceContext, 'user' | 'isSystem' | 'now'>,
  db: Kysely<Database>,
  page: RuntimePage,
  alias: string | null = null,
): Promise<ScopeCondition> {
  if (ctx.isSystem) return { where: null, kind: 'all' };
  const user = ctx.user;
  if (!user) return { where: repo.noRows, kind: 'none' };
  // An administrator's key narrowed to some codes loses the powers, not the rows its owner sees.
  if (user.isAdmin || user.apiKey?.ownerIsAdmin) return { where: null, kind: 'all' };
  const effective = await dataScopeFor(db, user, [page.pageCode, page.pageId]);
  const parts: RawBuilder<unknown>[] = [];
  switch (effective.scope) {
    case 'all':
      return { where: null, kind: 'all' };
    case 'own':
      parts.push(repo.createdBy(alias, user.id));
      break;
    case 'ownUnit':
      parts.push(repo.ownedByUnits(alias, user.organizationUnitIds));
      break;
    case 'unitAndBelow':
      parts.push(repo.ownedByUnitsAndBelow(alias, user.organizationUnitIds));
      break;
    case 'custom':
      break;
  }
  const fields = filterFieldsOf(page.master.controls);
  // Scope filters have their own operand budget, apart from the caller's filter (FILTERS.md).
  let budget = MAX_SCOPE_OPERANDS;
  for (const filter of effective.customFilters) {
    const parsed = parseFilterConditions(filter, fields, { now: ctx.now(), maxOperands: Number.POSITIVE_INFINITY });
    const operands = parsed.ok ? countFilterOperands(parsed.tree) : 0;
    // A custom filter that no longer fits the page (a removed field), or past the budget, grants nothing.
    if (!parsed.ok || operands > budget) {
      parts.push(repo.noRows);
      continue;
    }
    budget -= operands;
    parts.push(compileFilterSql(parsed.tree, fields, { alias }));
  }
  return { where: repo.anyOf(parts), kind: effective.scope };
}
