/**
 * spec §3 selection items for the pickers: 1 organisation unit (with its parent path), 3 user
 * (active ones when searching; any when resolving ids), 4 role. `ids` resolves chosen values.
 * In a page's context (a picker control the caller may view) the answer carries display names
 * only; the user names and unit paths are for administrators' screens.
 *
 * It lives with business data because the page context (a picker control of a published page) is
 * business data's; the directory itself is read through identity's index.
 */
import { P } from '@tessera/core/contracts/permissions';
import type { TSelectionItem } from '@tessera/core/contracts/identity';
import type { ServiceContext } from '../../platform/context.ts';
import { forbidden } from '../../platform/errors.ts';
import { roleDirectory, unitDirectory, userDirectory } from '../identity/index.ts';
import { requirePickerControl } from './runtime-page.ts';

export interface SelectionQuery {
  type: 1 | 3 | 4;
  filter?: string;
  ids?: string[];
  pageId?: string;
  dataControlId?: string;
  skipCount: number;
  maxResultCount: number;
}

/** Screens that manage people, units, roles, grants, page designs or approval flows (their approvers), and flow management (initiators, assignees), may browse the directory. */
const ADMINISTRATOR_CODES = [P.Users, P.Roles, P.OrganizationUnits, P.Permissions, P.DataScopesManage, P.Pages, P.Workflows, P.FlowInstances];

export async function selectionItems(ctx: ServiceContext, q: SelectionQuery): Promise<TSelectionItem[]> {
  let administrator = false;
  if (q.pageId && q.dataControlId) {
    await requirePickerControl(ctx, { pageId: q.pageId, dataControlId: q.dataControlId, type: q.type });
  } else {
    if (!ADMINISTRATOR_CODES.some((code) => ctx.user?.access.has(code))) throw forbidden({ reason: 'DirectoryNeedsContext', permission: ADMINISTRATOR_CODES[0] });
    administrator = true;
  }
  const items = await findSelectionItems(ctx, q);
  return administrator ? items : items.map((item) => ({ ...item, description: null }));
}

function findSelectionItems(ctx: ServiceContext, q: SelectionQuery): Promise<TSelectionItem[]> {
  if (q.type === 1) return unitDirectory(ctx.db, q);
  if (q.type === 3) return userDirectory(ctx.db, q, ctx.culture);
  return roleDirectory(ctx.db, q);
}
