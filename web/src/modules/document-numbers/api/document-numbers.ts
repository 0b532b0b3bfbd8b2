import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TDocumentNumberRule,
  TDocumentNumberRuleInput,
  TDocumentNumberRuleList,
  TDocumentNumberRuleQuery,
  TPreviewDocumentNumbersInput,
  TPreviewDocumentNumbersResult,
  TReservation,
  TReservationQuery,
} from '@tessera/core/contracts/document-numbers';
import { api } from '../../../shared/api/client.ts';

const BASE = '/app/document-number';

export const documentNumberKeys = {
  all: ['document-numbers'] as const,
  list: (query: Partial<TDocumentNumberRuleQuery>) => ['document-numbers', 'list', query] as const,
  one: (id: string) => ['document-numbers', 'one', id] as const,
  preview: (input: TPreviewDocumentNumbersInput) => ['document-numbers', 'preview', input] as const,
  reservations: (id: string, query: Partial<TReservationQuery>) => ['document-numbers', 'reservations', id, query] as const,
};

export const useDocumentNumberRules = (query: Partial<TDocumentNumberRuleQuery>) =>
  useQuery({
    queryKey: documentNumberKeys.list(query),
    queryFn: () => api.get<TDocumentNumberRuleList>(BASE, query as Record<string, string | number | undefined>),
    placeholderData: keepPreviousData,
  });

export const useDocumentNumberRule = (id: string | null) =>
  useQuery({ queryKey: documentNumberKeys.one(id ?? ''), queryFn: () => api.get<TDocumentNumberRule>(`${BASE}/${id}`), enabled: !!id, staleTime: 0 });

/** The next numbers of the rule being edited, without consuming any (silent: the editor shows why a format is wrong). */
export const usePreviewDocumentNumbers = (input: TPreviewDocumentNumbersInput | null) =>
  useQuery({
    queryKey: documentNumberKeys.preview(input ?? { rule: { resetPeriod: 'never', segments: [] } }),
    queryFn: () => api.post<TPreviewDocumentNumbersResult>(`${BASE}/preview`, input, { silent: true }),
    enabled: !!input,
    placeholderData: keepPreviousData,
    retry: false,
  });

export const useReservations = (id: string | null, query: Partial<TReservationQuery>) =>
  useQuery({
    queryKey: documentNumberKeys.reservations(id ?? '', query),
    queryFn: () => api.get<{ items: TReservation[]; totalCount: number }>(`${BASE}/${id}/reservations`, query as Record<string, string | number | undefined>),
    enabled: !!id,
    placeholderData: keepPreviousData,
  });

function useRuleMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: documentNumberKeys.all }) });
}

export const useCreateRule = () => useRuleMutation((input: TDocumentNumberRuleInput) => api.post<TDocumentNumberRule>(BASE, input, { silent: true }));
export const useUpdateRule = () =>
  useRuleMutation((v: { id: string; input: TDocumentNumberRuleInput }) => api.put<TDocumentNumberRule>(`${BASE}/${v.id}`, v.input, { silent: true }));
export const useDeleteRule = () => useRuleMutation((id: string) => api.delete<void>(`${BASE}/${id}`));
export const useVoidNumber = () => useRuleMutation((v: { id: string; docNo: string }) => api.post<void>(`${BASE}/${v.id}/doc-no/void`, { docNo: v.docNo }));
