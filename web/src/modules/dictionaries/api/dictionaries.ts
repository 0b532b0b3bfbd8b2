import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TDictionary,
  TDictionaryInput,
  TDictionaryList,
  TDictionaryQuery,
  TImportDictionaryItemsResult,
  TSysDictionary,
} from '@tessera/core/contracts/dictionaries';
import { api } from '../../../shared/api/client.ts';
import { downloadFile } from '../../../shared/api/download.ts';
import { uploadFile } from '../../../shared/api/upload.ts';

const BASE = '/app/business-dictionary';

export const dictionaryKeys = {
  all: ['dictionaries'] as const,
  list: (query: Partial<TDictionaryQuery>) => ['dictionaries', 'list', query] as const,
  one: (id: string) => ['dictionaries', 'one', id] as const,
  sys: (filter: string) => ['dictionaries', 'sys', filter] as const,
};

export const fetchDictionaries = (query: Partial<TDictionaryQuery>) => api.get<TDictionaryList>(BASE, query as Record<string, string | number | boolean | undefined>);
export const useDictionaries = (query: Partial<TDictionaryQuery>) =>
  useQuery({ queryKey: dictionaryKeys.list(query), queryFn: () => fetchDictionaries(query), placeholderData: keepPreviousData });

export const fetchDictionary = (id: string) => api.get<TDictionary>(`${BASE}/${id}`);
export const useDictionary = (id: string | null) =>
  useQuery({ queryKey: dictionaryKeys.one(id ?? ''), queryFn: () => fetchDictionary(id!), enabled: !!id, staleTime: 0 });

/** System dictionaries are few and built in: one request for all of them. */
export const useSysDictionaries = () =>
  useQuery({
    queryKey: dictionaryKeys.sys(''),
    queryFn: () => api.get<{ items: TSysDictionary[]; totalCount: number }>('/app/sys-dictionaries', { SkipCount: 0, MaxResultCount: 1000 }),
    staleTime: 5 * 60_000,
  });

function useDictionaryMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: dictionaryKeys.all }) });
}

// Writes are silent: the editor shows field errors itself, the list shows "in use" as a dialog.
export const useCreateDictionary = () => useDictionaryMutation((input: TDictionaryInput) => api.post<TDictionary>(BASE, input, { silent: true }));
export const useUpdateDictionary = () =>
  useDictionaryMutation((v: { id: string; input: TDictionaryInput }) => api.put<TDictionary>(`${BASE}/${v.id}`, v.input, { silent: true }));
export const useDeleteDictionary = () => useDictionaryMutation((id: string) => api.delete<void>(`${BASE}/${id}`, { silent: true }));
/** Sends the workbook as it is; a 400 lists every bad row (validationErrors), the dialog shows them. */
export const useImportDictionaryItems = () =>
  useDictionaryMutation((v: { id: string; file: File; onProgress?: (percent: number) => void }) =>
    uploadFile<TImportDictionaryItemsResult>(`${BASE}/${v.id}/import`, v.file, { onProgress: v.onProgress }),
  );

/** Downloads the items as Excel (also the import template) with the caller's token. */
export const downloadDictionaryExcel = (id: string, code: string) => downloadFile(`${BASE}/${id}/export`, { fileName: `${code}.xlsx` });
