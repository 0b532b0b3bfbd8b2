import { z } from 'zod';
import { zText } from './text.ts';
import { pagedResult, ZPagedQuery } from './common.ts';

export const AUDIT_EXPORT_MAX_ROWS = 50_000;

export const ZAuditLog = z.object({
  id: zText(),
  time: zText(),
  userId: zText().nullable(),
  /** The account name recorded with the entry (what the UserName filter matches). */
  userName: zText().nullable(),
  /** The user's full name in the caller's culture (null: no such user, or the system). */
  name: zText().nullable(),
  action: zText(),
  entityType: zText().nullable(),
  entityId: zText().nullable(),
  ip: zText().nullable(),
  /** For data changes `{ before, after }`; for denials the route and code. */
  details: z.record(zText(), z.unknown()).nullable(),
});
export type TAuditLog = z.infer<typeof ZAuditLog>;

const isoTime = z.iso.datetime({ offset: true });

/** `Sorting`: time, action, userName, entityType (asc|desc); default newest first. */
export const ZAuditLogQuery = ZPagedQuery.extend({
  StartTime: isoTime.optional(),
  EndTime: isoTime.optional(),
  UserName: zText().trim().max(256).optional(),
  UserId: z.uuid().optional(),
  /** One action or several separated by commas. */
  Action: zText().trim().max(500).regex(/^[A-Za-z0-9_,]*$/, 'action names separated by commas').optional(),
  EntityType: zText().trim().max(200).optional(),
});
export type TAuditLogQuery = z.infer<typeof ZAuditLogQuery>;

export const ZAuditLogList = pagedResult(ZAuditLog);
export type TAuditLogList = z.infer<typeof ZAuditLogList>;

export const ZAuditActionList = z.object({ items: z.array(zText()) });
