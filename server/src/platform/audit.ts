import type { ServiceContext } from './context.ts';

export type AuditAction =
  | 'LoginSucceeded'
  | 'LoginFailed'
  | 'Logout'
  | 'Registered'
  | 'PasswordChanged'
  | 'PermissionDenied'
  | 'ValidationFailed'
  | 'Created'
  | 'Updated'
  | 'Deleted'
  | (string & {});

/** The user name audit entries of the system's own work (timers, workers, tools) carry. */
export const SYSTEM_ACTOR_NAME = 'system';

export interface AuditEntry {
  userId?: string | null;
  userName?: string | null;
  entityType?: string;
  entityId?: string;
  details?: Record<string, unknown>;
}

/** Work done with a personal API key names the key in its entries. */
function detailsOf(ctx: ServiceContext, entry: AuditEntry): string | null {
  const apiKeyId = ctx.user?.apiKey?.id;
  const details = apiKeyId && entry.entityType !== 'ApiKey' ? { ...entry.details, apiKeyId } : entry.details;
  return details ? JSON.stringify(details) : null;
}

/**
 * Appends to the audit log. Runs on the context's database outside any transaction (the caller's
 * work has either finished or rolled back), and never fails the work it describes.
 */
export async function recordAudit(ctx: ServiceContext, action: AuditAction, entry: AuditEntry = {}) {
  try {
    await ctx.db
      .insertInto('audit_logs')
      .values({
        action,
        user_id: entry.userId ?? ctx.user?.id ?? null,
        user_name: entry.userName ?? ctx.user?.userName ?? (ctx.isSystem ? SYSTEM_ACTOR_NAME : null),
        entity_type: entry.entityType ?? null,
        entity_id: entry.entityId ?? null,
        ip: ctx.client.ip,
        details: detailsOf(ctx, entry),
      })
      .execute();
  } catch (err) {
    ctx.log.error({ err }, 'audit write failed');
  }
}
