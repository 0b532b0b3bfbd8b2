import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TAuditLogList } from '@tessera/core/contracts/audit';
import { downloadFile } from '../../../shared/api/download.ts';
import { api } from '../../../shared/api/client.ts';

export interface AuditQuery {
  SkipCount: number;
  MaxResultCount: number;
  Sorting?: string;
  Filter?: string;
  StartTime?: string;
  EndTime?: string;
  UserName?: string;
  Action?: string;
}

const PATH = '/app/audit-logs';

export const useAuditLogs = (q: AuditQuery) =>
  useQuery({ queryKey: ['audit-logs', q], queryFn: () => api.get<TAuditLogList>(PATH, { ...q }), placeholderData: keepPreviousData });

export const useAuditActions = () => useQuery({ queryKey: ['audit-logs', 'actions'], queryFn: () => api.get<{ items: string[] }>(`${PATH}/actions`) });

/** Downloads the filtered log as .xlsx. */
export const downloadAuditExport = (q: Omit<AuditQuery, 'SkipCount' | 'MaxResultCount'>) =>
  downloadFile(`${PATH}/export`, { query: Object.fromEntries(Object.entries(q).filter(([, v]) => v)), fallbackName: 'audit-log.xlsx' });
