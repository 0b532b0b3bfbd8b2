import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { THelpDocument, THelpDocumentInput, THelpDocumentTree, THelpImage } from '@tessera/core/contracts/help';
import { api, API_BASE, ApiError, messageForStatus } from '../../../shared/api/client.ts';
import { getToken } from '../../../shared/auth/session.ts';
import i18n from '../../../shared/i18n/i18n.ts';

const BASE = '/app/help-documents';

export const helpKeys = {
  all: ['help-documents'] as const,
  tree: (filter: string) => ['help-documents', 'tree', filter] as const,
  one: (id: string) => ['help-documents', 'one', id] as const,
};

export const useHelpTree = (filter: string) =>
  useQuery({ queryKey: helpKeys.tree(filter), queryFn: () => api.get<THelpDocumentTree>(BASE, { filter }), placeholderData: keepPreviousData });

export const useHelpDocument = (id: string | null) =>
  // Its HTML is the body in the interface language: one cache entry per language.
  useQuery({ queryKey: [...helpKeys.one(id ?? ''), i18n.language], queryFn: () => api.get<THelpDocument>(`${BASE}/${id}`), enabled: !!id });

export const fetchHelpDocumentByKey = (key: string) => api.get<THelpDocument>(`${BASE}/by-key/${encodeURIComponent(key)}`, undefined, { silent: true });

function useHelpMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: helpKeys.all }) });
}

export const useCreateHelpDocument = () => useHelpMutation((input: THelpDocumentInput) => api.post<THelpDocument>(BASE, input, { silent: true }));
export const useUpdateHelpDocument = () =>
  useHelpMutation((v: { id: string; input: THelpDocumentInput }) => api.put<THelpDocument>(`${BASE}/${v.id}`, v.input, { silent: true }));
export const useDeleteHelpDocument = () =>
  useHelpMutation((v: { id: string; cascade: boolean }) => api.delete<void>(`${BASE}/${v.id}${v.cascade ? '?cascade=true' : ''}`));

/** The server's rendering of unsaved Markdown (the same sanitiser as saved documents). */
export const previewMarkdown = (markdown: string, signal?: AbortSignal) => api.post<{ html: string }>(`${BASE}/preview`, { markdown }, { silent: true, signal });

/** Uploads an image file as the raw request body. */
export async function uploadHelpImage(file: File): Promise<THelpImage> {
  const url = `${API_BASE}${BASE}/images`;
  const token = getToken();
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'include',
    headers: {
      'content-type': file.type || 'application/octet-stream',
      'accept-language': i18n.language || 'zh-CN',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: file,
  });
  const body = await response.json().catch(() => undefined);
  if (!response.ok) throw new ApiError(response.status, messageForStatus(response.status, body?.error?.message, url), url, body);
  return body as THelpImage;
}
