import { P } from '@tessera/core/contracts/permissions';
import { definePermissionGroup } from '../../platform/permission-registry.ts';

definePermissionGroup('Tessera.AuditLogs', { 'zh-CN': '审计日志', 'en-US': 'Audit log' }, [
  { name: P.AuditLogs, displayName: { 'zh-CN': '查看审计日志', 'en-US': 'View the audit log' } },
  { name: P.AuditLogsExport, parentName: P.AuditLogs, displayName: { 'zh-CN': '导出审计日志', 'en-US': 'Export the audit log' } },
]);
