import type { FastifyRequest } from 'fastify';

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

export interface AuditEntry {
  userId?: string | null;
  userName?: string | null;
  entityType?: string;
  entityId?: string;
  details?: Record<string, unknown>;
}

/**
 * Appends to the audit log. Runs outside any request transaction (the caller's work has either
 * finished or rolled back), and never fails the request it describes.
 */
export async function recordAudit(request: FastifyRequest, action: AuditAction, entry: AuditEntry = {}) {
  try {
    await request.server.db
      .insertInto('audit_logs')
      .values({
        action,
        user_id: entry.userId ?? request.user?.id ?? null,
        user_name: entry.userName ?? request.user?.userName ?? null,
        entity_type: entry.entityType ?? null,
        entity_id: entry.entityId ?? null,
        ip: request.ip,
        details: entry.details ? JSON.stringify(entry.details) : null,
      })
      .execute();
  } catch (err) {
    request.log.error({ err }, 'audit write failed');
  }
}
