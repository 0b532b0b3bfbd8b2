import ExcelJS from 'exceljs';
import type { Kysely, Selectable } from 'kysely';
import { AUDIT_EXPORT_MAX_ROWS, type TAuditLog, type TAuditLogList, type TAuditLogQuery } from '@tessera/core/contracts/audit';
import type { AuditLogsTable, Database } from '../../db/schema.ts';
import type { Culture } from '../../platform/messages.ts';
import { pageWindow } from '../../platform/paging.ts';
import { auditSort, distinctActions, filteredAuditLogs } from './audit.repository.ts';

const toDto = (row: Selectable<AuditLogsTable>): TAuditLog => ({
  id: row.id,
  time: new Date(row.time).toISOString(),
  userId: row.user_id,
  userName: row.user_name,
  action: row.action,
  entityType: row.entity_type,
  entityId: row.entity_id,
  ip: row.ip,
  details: row.details,
});

export async function listAuditLogs(db: Kysely<Database>, query: TAuditLogQuery): Promise<TAuditLogList> {
  const filtered = filteredAuditLogs(db, query);
  const sort = auditSort(query.Sorting);
  const { offset, limit } = pageWindow(query);
  const [rows, total] = await Promise.all([
    filtered.selectAll().orderBy(sort.column, sort.direction).orderBy('id', 'desc').offset(offset).limit(limit).execute(),
    filtered.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toDto), totalCount: Number(total.count) };
}

export const listAuditActions = async (db: Kysely<Database>) => ({ items: await distinctActions(db) });

const HEADERS: Record<Culture, string[]> = {
  'zh-CN': ['时间', '用户', '操作', '对象类型', '对象', 'IP 地址', '详情'],
  'en-US': ['Time', 'User', 'Action', 'Entity type', 'Entity', 'IP address', 'Details'],
};
/** Excel keeps at most 32,767 characters in a cell. */
const CELL_LIMIT = 32_000;

/** The filtered log (newest first unless sorted otherwise) as an .xlsx workbook, up to AUDIT_EXPORT_MAX_ROWS rows. */
export async function exportAuditLogs(db: Kysely<Database>, query: TAuditLogQuery, culture: Culture): Promise<Buffer> {
  const sort = auditSort(query.Sorting);
  const rows = await filteredAuditLogs(db, query)
    .selectAll()
    .orderBy(sort.column, sort.direction)
    .orderBy('id', 'desc')
    .limit(AUDIT_EXPORT_MAX_ROWS)
    .execute();
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date();
  const sheet = workbook.addWorksheet(culture === 'zh-CN' ? '审计日志' : 'Audit log');
  const widths = [22, 18, 20, 20, 38, 16, 80];
  sheet.columns = HEADERS[culture].map((header, i) => ({ header, width: widths[i] }));
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  for (const row of rows) {
    const details = row.details ? JSON.stringify(row.details) : '';
    sheet.addRow([
      new Date(row.time),
      row.user_name ?? '',
      row.action,
      row.entity_type ?? '',
      row.entity_id ?? '',
      row.ip ?? '',
      details.length > CELL_LIMIT ? `${details.slice(0, CELL_LIMIT)}…` : details,
    ]);
  }
  sheet.getColumn(1).numFmt = 'yyyy-mm-dd hh:mm:ss';
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
