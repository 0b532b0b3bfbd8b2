/**
 * The audit module's public entry (the audit-log screen and its export): the only file other
 * modules import from it. It owns no table: it reads `audit_logs`, which the kernel writes
 * (platform/audit.ts, `recordAudit`) and owns. Users' full names come from identity's index.
 */
export { auditRoutes } from './audit.routes.ts';
