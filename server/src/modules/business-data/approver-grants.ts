/**
 * A record in approval (FlowStatus 1) changes only through its flow — and by the holders of its
 * pending approval tasks, in the fields their node marks editable (issue 13; the rules are in
 * packages/core/src/workflow/field-permissions.ts). The workflow module sits above this one (it
 * reads and saves records through this module's index), so it registers where those grants come
 * from (`registerApproverGrants`) at start-up; without it nobody holds one.
 */
import { approverFieldPermission, fieldRefOf } from '@tessera/core/workflow/field-permissions';
import type { TFieldPermission } from '@tessera/core/contracts/workflow';
import type { Db, ServiceContext } from '../../platform/context.ts';
import type { PageAccess, RuntimePage } from './runtime-page.ts';

/** What the caller's pending approval tasks on a record let them do. */
export interface ApproverGrant {
  /** The caller's pending approval tasks on the record's running instance. */
  taskIds: string[];
  /** Field ref (`code`, `viewCode.code`) → permission, the most permissive of those tasks' nodes. */
  fieldPermissions: Record<string, TFieldPermission>;
}

/** The grant of `userId` on one record (ids lower case), read in the caller's transaction; null: no pending task. */
export type ApproverGrantSource = (db: Db, query: { userId: string; pageId: string; recordId: string }) => Promise<ApproverGrant | null>;

let source: ApproverGrantSource | null = null;

export function registerApproverGrants(grants: ApproverGrantSource): void {
  source = grants;
}

/** The caller's grant on a record in approval; null for the system and for a caller without a pending task. */
export async function approverGrantOf(ctx: Pick<ServiceContext, 'user' | 'isSystem'>, db: Db, pageId: string, recordId: string): Promise<ApproverGrant | null> {
  if (!source || ctx.isSystem || !ctx.user) return null;
  return source(db, { userId: ctx.user.id, pageId, recordId: recordId.toLowerCase() });
}

/** The approver's permission on a control of the page (unnamed: read-only). */
export const approverPermissionOf = (page: RuntimePage, grant: ApproverGrant, view: { id: string; code: string }, controlCode: string): TFieldPermission =>
  approverFieldPermission(grant.fieldPermissions, fieldRefOf(view.id === page.master.id, view.code, controlCode));

/** What the approver reads of the record: the caller's own rights without the node's hidden fields. */
export const approverReadAccess = (page: RuntimePage, access: PageAccess, grant: ApproverGrant): PageAccess =>
  access.hiding((view, control) => approverPermissionOf(page, grant, view, control.code) === 'hidden');
