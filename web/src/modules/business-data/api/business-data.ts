import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type {
  TDropDownResult,
  TImportViewDataResult,
  TOpenWindowResult,
  TPageDataResult,
  TRunButtonProcedureResult,
  TPageRuntime,
  TQueryViewDataResult,
  TRecordHistoryList,
  TSourceDefaultResult,
  TViewPreferences,
} from '@tessera/core/contracts/business-data';
import type { TBusinessRecord } from '@tessera/core/page-definition';
import type { TBusinessMenu } from '@tessera/core/contracts/business-menus';
import { api } from '../../../shared/api/client.ts';
import { downloadFile } from '../../../shared/api/download.ts';
import { uploadFile } from '../../../shared/api/upload.ts';

const BASE = '/app/business-data';
/** The browser's offset from UTC in minutes (date-only values and shortcuts are read in it). */
export const offsetMinutes = () => -new Date().getTimezoneOffset();

export const businessDataKeys = {
  runtime: (pageId: string) => ['business-data', 'runtime', pageId] as const,
  menu: (menuId: string) => ['business-data', 'menu', menuId] as const,
  list: (pageId: string) => ['business-data', 'list', pageId] as const,
  record: (pageId: string, id: string) => ['business-data', 'record', pageId, id] as const,
  history: (pageId: string, id: string) => ['business-data', 'history', pageId, id] as const,
  preferences: (pageId: string, viewId: string) => ['business-data', 'preferences', pageId, viewId] as const,
};

export const fetchMenu = (menuId: string) => api.get<TBusinessMenu>(`/app/business-menu/${menuId}`, undefined, { silent: true });
export const useMenu = (menuId: string) => useQuery({ queryKey: businessDataKeys.menu(menuId), queryFn: () => fetchMenu(menuId), retry: false });

export const fetchPageRuntime = (pageId: string) => api.get<TPageRuntime>(`${BASE}/page-runtime`, { pageId }, { silent: true });
export const usePageRuntime = (pageId: string | null | undefined) =>
  useQuery({ queryKey: businessDataKeys.runtime(pageId ?? ''), queryFn: () => fetchPageRuntime(pageId!), enabled: Boolean(pageId), retry: false });

export interface ViewQuery {
  pageId: string;
  viewId: string;
  filterConditions: unknown[];
  Sorting?: string;
  SkipCount: number;
  MaxResultCount: number;
}
export const queryViewData = (q: ViewQuery) => api.post<TQueryViewDataResult>(`${BASE}/query-view-data`, { ...q, offsetMinutes: offsetMinutes() }, { silent: true });
/** A list page: 100 rows. */
export const LIST_PAGE_SIZE = 100;
/** What a list asks first: no filter, the server's order, the first page (prefetched on a reload). */
export const firstListQuery = (pageId: string, viewId: string): ViewQuery => ({ pageId, viewId, filterConditions: [], Sorting: undefined, SkipCount: 0, MaxResultCount: LIST_PAGE_SIZE });
export const viewDataQuery = (q: ViewQuery) => ({ queryKey: [...businessDataKeys.list(q.pageId), q], queryFn: () => queryViewData(q), retry: false });
export const useViewData = (q: ViewQuery, enabled = true) => useQuery({ ...viewDataQuery(q), placeholderData: (previous) => previous, enabled });

export const queryPageData = (pageId: string, id: string) => api.post<TPageDataResult>(`${BASE}/query-page-data`, { pageId, id, offsetMinutes: offsetMinutes() });
export const savePage = (pageId: string, viewDataList: { viewId: string; dataList: Record<string, unknown>[] }[]) =>
  api.post<TPageDataResult>(`${BASE}/save-page`, { pageId, viewDataList, offsetMinutes: offsetMinutes() }, { silent: true });
/** A "run procedure" page button: saves, then runs the button's procedure (issue 16). */
export const runButtonProcedure = (pageId: string, buttonId: string, viewDataList: { viewId: string; dataList: Record<string, unknown>[] }[]) =>
  api.post<TRunButtonProcedureResult>(`${BASE}/run-procedure`, { pageId, buttonId, viewDataList, offsetMinutes: offsetMinutes() }, { silent: true });
export const deleteRecords = (pageId: string, ids: string[]) => api.post<{ deleted: number }>(`${BASE}/delete-data`, { pageId, ids });
export const queryOpenWindow = (body: { pageId: string; dataControlId: string; filter?: string; record?: Record<string, unknown>; skipCount: number; maxResultCount: number }) =>
  api.post<TOpenWindowResult>(`${BASE}/query-open-windows-data`, { ...body, offsetMinutes: offsetMinutes() });
/** `record`: the row being edited — a cascading control (`parentCode`) gets only the options under its parent's value. */
export const queryDropDown = (pageId: string, dataControlId: string, record?: Record<string, unknown> | null) =>
  api.post<TDropDownResult>(`${BASE}/query-drop-down-data`, { pageId, dataControlId, record: record ?? null, skipCount: 0, maxResultCount: 1000 });
/** The server's clock (spec §4: date defaults use the server date). */
export const fetchSystemDate = () => api.get<{ date: string; timeZone: string }>('/app/sys-function/system-date', undefined, { silent: true });
/** value → label of a dictionary in the UI language, disabled items included (as the server's save recompute reads them). */
export const fetchDictionaryLabels = async (dictionaryCode: string): Promise<Map<string, string>> => {
  const result = await api.get<{ items: { value: string; label: string }[] }>('/app/business-dictionary/options', { dictionaryCode, includeDisabled: true }, { silent: true });
  return new Map(result.items.map((i) => [i.value, i.label]));
};
/** A new record's default from its control's saved query of a data source (null: the query answered no row). */
export const fetchSourceDefault = (pageId: string, dataControlId: string, record: TBusinessRecord) =>
  api.post<TSourceDefaultResult>(`${BASE}/source-default`, { pageId, dataControlId, record, offsetMinutes: offsetMinutes() }).then((r) => r.value);
export const reserveDocumentNumber = (pageId: string, dataControlId: string) => api.post<{ docNo: string }>(`${BASE}/reserve-document-number`, { pageId, dataControlId });
/** Voids a number reserved for a new record left unsaved; sent quietly and kept alive while the page goes away. */
export const voidDocumentNumber = (pageId: string, dataControlId: string, docNo: string) =>
  api.post<void>(`${BASE}/void-document-number`, { pageId, dataControlId, docNo }, { silent: true, quietUnauthorized: true, keepalive: true });
export const fetchHistory = (pageId: string, id: string) => api.get<TRecordHistoryList>(`${BASE}/record-history`, { pageId, id });
export const useHistory = (pageId: string, id: string | null) =>
  useQuery({ queryKey: businessDataKeys.history(pageId, id ?? ''), queryFn: () => fetchHistory(pageId, id!), enabled: Boolean(id) });
export const fetchPreferences = (pageId: string, viewId: string) => api.get<TViewPreferences>(`${BASE}/view-preferences`, { pageId, viewId }, { silent: true });
export const preferencesQuery = (pageId: string, viewId: string) => ({ queryKey: businessDataKeys.preferences(pageId, viewId), queryFn: () => fetchPreferences(pageId, viewId) });
export const usePreferences = (pageId: string, viewId: string) => useQuery(preferencesQuery(pageId, viewId));
export const putPreferences = (pageId: string, viewId: string, value: Record<string, unknown>) => api.put<TViewPreferences>(`${BASE}/view-preferences`, { pageId, viewId, value });
/** Downloads a file answer (xlsx) of this module and saves it under `fileName`. */
export const download = (path: string, init: { method: 'GET' | 'POST'; body?: object; query?: Record<string, string> }, fileName: string) =>
  downloadFile(`${BASE}/${path}`, { method: init.method, query: init.query, body: init.body && { ...init.body, offsetMinutes: offsetMinutes() }, fileName });

/**
 * The import: the file travels as it is (the raw body) with upload progress — `onProgress` gets
 * 0–100 while it travels, then the server reads, validates and writes every row.
 */
export const importViewData = (pageId: string, viewId: string, file: Blob, onProgress: (percent: number) => void) =>
  uploadFile<TImportViewDataResult>(`${BASE}/import-view-data`, file, { query: { pageId, viewId, offsetMinutes: offsetMinutes() }, onProgress });

/**
 * The filter panel's option loader: a dictionary / query-bound field's items through the form's
 * drop-down API (no record: a cascading field lists all its items), cached per control.
 */
export function useFilterOptionsLoader(pageId: string) {
  const client = useQueryClient();
  return useCallback(
    (field: { control?: { id: string } }) =>
      field.control
        ? client.fetchQuery({
            queryKey: [...businessDataKeys.runtime(pageId), 'filter-options', field.control.id],
            queryFn: async () => (await queryDropDown(pageId, field.control!.id)).items.map((i) => ({ value: i.value, label: i.label })),
            staleTime: 60_000,
          })
        : Promise.resolve([]),
    [client, pageId],
  );
}
