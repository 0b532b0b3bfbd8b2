import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZAuditActionList, ZAuditLogList, ZAuditLogQuery } from '@tessera/core/contracts/audit';
import { P } from '@tessera/core/contracts/permissions';
import { XLSX_TYPE } from '../../platform/excel.ts';
import { requirePermission } from '../../platform/route-access.ts';
import './audit.permissions.ts';
import { exportAuditLogs, listAuditActions, listAuditLogs } from './audit.service.ts';

export async function auditRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/app/audit-logs', {
    config: requirePermission(P.AuditLogs),
    schema: { summary: 'Audit log: sign-ins, denials, data changes (filter by time, user, action; paged)', querystring: ZAuditLogQuery, response: { 200: ZAuditLogList } },
    handler: (req) => listAuditLogs(req.ctx, req.query),
  });

  app.get('/app/audit-logs/actions', {
    config: requirePermission(P.AuditLogs),
    schema: { summary: 'The actions present in the log (for the filter)', response: { 200: ZAuditActionList } },
    handler: (req) => listAuditActions(req.ctx),
  });

  app.get('/app/audit-logs/export', {
    config: requirePermission(P.AuditLogsExport),
    schema: { summary: 'The filtered audit log as an Excel workbook', querystring: ZAuditLogQuery },
    handler: async (req, reply) => {
      const file = await exportAuditLogs(req.ctx, req.query);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="audit-log-${day}.xlsx"`)
        .send(file);
    },
  });
}
