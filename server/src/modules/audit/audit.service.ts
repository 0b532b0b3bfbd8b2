import ExcelJS from 'exceljs';
import type { Selectable } from 'kysely';
import { AUDIT_EXPORT_MAX_ROWS, type TAuditLog, type TAuditLogList, type TAuditLogQuery } from '@tessera/core/contracts/audit';
import type { AuditLogsTable } from '../../db/schema.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { clipCellText, styleHeaderRow, workbookBuffer } from '../../platform/excel.ts';
import type { Culture } from '../../platform/messages.ts';
import { pageWindow } from '../../platform/paging.ts';
import { userDisplayNames } from '../identity/index.ts';
import { auditLogsInOrder, distinctActions, pageOfAuditLogs } from './audit.repository.ts';

const toDto = (row: Selectable<AuditLogsTable>, names: Map<string, string>): TAuditLog => ({
  id: row.id,
  time: new Date(row.time).toISOString(),
  userId: row.user_id,
  userName: row.user_name,
  name: (row.user_id ? names.get(row.user_id) : undefined) ?? null,
  action: row.action,
  entityType: row.entity_type,
  entityId: row.entity_id,
  ip: row.ip,
  details: row.details,
});

export async function listAuditLogs(ctx: ServiceContext, query: TAuditLogQuery): Promise<TAuditLogList> {
  const { rows, totalCount } = await pageOfAuditLogs(ctx.db, query, pageWindow(query));
  const names = await userDisplayNames(ctx.db, rows.map((r) => r.user_id ?? ''), ctx.culture);
  return { items: rows.map((row) => toDto(row, names)), totalCount };
}

export const listAuditActions = async (ctx: ServiceContext) => ({ items: await distinctActions(ctx.db) });

/** "张三 (zhangsan)": the full name with the account, or whichever of them is known. */
function userCell(userName: string | null, name: string | undefined): string {
  if (name && userName && name !== userName) return `${name} (${userName})`;
  return name || userName || '';
}

const HEADERS: Record<Culture, string[]> = {
  'zh-CN': ['时间', '用户', '操作', '对象类型', '对象', 'IP 地址', '详情'],
  'en-US': ['Time', 'User', 'Action', 'Entity type', 'Entity', 'IP address', 'Details'],
};

/** The filtered log (newest first unless sorted otherwise) as an .xlsx workbook, up to AUDIT_EXPORT_MAX_ROWS rows. */
export async function exportAuditLogs(ctx: ServiceContext, query: TAuditLogQuery): Promise<Buffer> {
  const culture = ctx.culture;
  const rows = await auditLogsInOrder(ctx.db, query, AUDIT_EXPORT_MAX_ROWS);
  const names = await userDisplayNames(ctx.db, rows.map((r) => r.user_id ?? ''), culture);
  const workbook = new ExcelJS.Workbook();
  workbook.created = ctx.now();
  const sheet = workbook.addWorksheet(culture === 'zh-CN' ? '审计日志' : 'Audit log');
  const widths = [22, 18, 20, 20, 38, 16, 80];
  sheet.columns = HEADERS[culture].map((header, i) => ({ header, width: widths[i] }));
  styleHeaderRow(sheet, { shaded: false });
  for (const row of rows) {
    sheet.addRow([
      new Date(row.time),
      userCell(row.user_name, row.user_id ? names.get(row.user_id) : undefined),
      row.action,
      row.entity_type ?? '',
      row.entity_id ?? '',
      row.ip ?? '',
      clipCellText(row.details ? JSON.stringify(row.details) : ''),
    ]);
  }
  sheet.getColumn(1).numFmt = 'yyyy-mm-dd hh:mm:ss';
  return workbookBuffer(workbook);
}
