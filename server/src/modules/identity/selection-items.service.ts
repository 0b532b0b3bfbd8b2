import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { P } from '@tessera/core/contracts/permissions';
import type { TSelectionItem } from '@tessera/core/contracts/identity';
import { forbidden } from '../../platform/errors.ts';
import { requestTranslator } from '../business-data/business-data.messages.ts';
import { requirePickerControl } from '../business-data/runtime-page.ts';
import { likePattern } from '../../platform/sql-values.ts';

interface SelectionQuery {
  type: 1 | 3 | 4;
  filter?: string;
  ids?: string[];
  pageId?: string;
  dataControlId?: string;
  skipCount: number;
  maxResultCount: number;
}

/** Screens that manage people, units, roles, grants or page designs may browse the directory. */
const ADMINISTRATOR_CODES = [P.Users, P.Roles, P.OrganizationUnits, P.Permissions, P.DataScopesManage, P.Pages];

/**
 * spec §3 selection items for the pickers: 1 organisation unit (with its parent path), 3 user
 * (active ones when searching; any when resolving ids), 4 role. `ids` resolves chosen values.
 * In a page's context (a picker control the caller may view) the answer carries display names
 * only; the user names and unit paths are for administrators' screens.
 */
export async function selectionItems(app: FastifyInstance, request: FastifyRequest, q: SelectionQuery): Promise<TSelectionItem[]> {
  let administrator = false;
  if (q.pageId && q.dataControlId) {
    await requirePickerControl(app.db, request, { pageId: q.pageId, dataControlId: q.dataControlId, type: q.type }, requestTranslator(request));
  } else {
    const access = request.user?.access;
    if (!ADMINISTRATOR_CODES.some((code) => access?.has(code))) throw forbidden({ reason: 'DirectoryNeedsContext', permission: ADMINISTRATOR_CODES[0] });
    administrator = true;
  }
  const items = await findSelectionItems(app, q);
  return administrator ? items : items.map((item) => ({ ...item, description: null }));
}

async function findSelectionItems(app: FastifyInstance, q: SelectionQuery): Promise<TSelectionItem[]> {
  const db = app.db;
  const filter = q.filter?.trim();
  if (q.type === 1) {
    let query = db
      .selectFrom('organization_units as ou')
      .select([
        'ou.id',
        'ou.display_name as title',
        sql<string | null>`(select string_agg(p.display_name, '/' order by p.code) from organization_units p
                            where ou.code like p.code || '.%')`.as('description'),
      ]);
    if (q.ids) query = query.where('ou.id', 'in', q.ids.length ? q.ids : ['00000000-0000-0000-0000-000000000000']);
    if (filter) query = query.where((eb) => eb.or([eb('ou.display_name', 'ilike', likePattern(filter)), eb('ou.code', 'like', `${filter}%`)]));
    return query.orderBy('ou.code').offset(q.skipCount).limit(q.maxResultCount).execute();
  }
  if (q.type === 3) {
    let query = db
      .selectFrom('users as u')
      .select(['u.id', sql<string>`coalesce(nullif(u.name, ''), u.user_name)`.as('title'), 'u.user_name as description']);
    if (q.ids) query = query.where('u.id', 'in', q.ids.length ? q.ids : ['00000000-0000-0000-0000-000000000000']);
    else query = query.where('u.is_deleted', '=', false).where('u.is_active', '=', true);
    if (filter) query = query.where(sql<boolean>`u.search_text like lower(${likePattern(filter)})`);
    return query.orderBy('u.user_name').orderBy('u.id').offset(q.skipCount).limit(q.maxResultCount).execute();
  }
  let query = db.selectFrom('roles as r').select(['r.id', 'r.name as title', sql<string | null>`nullif(r.description, '')`.as('description')]);
  if (q.ids) query = query.where('r.id', 'in', q.ids.length ? q.ids : ['00000000-0000-0000-0000-000000000000']);
  if (filter) query = query.where('r.name', 'ilike', likePattern(filter));
  return query.orderBy('r.name').offset(q.skipCount).limit(q.maxResultCount).execute();
}
