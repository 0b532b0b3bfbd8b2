import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TCreatePrintTemplateInput,
  TImportPrintTemplateInput,
  TPreviewPrintInput,
  TPrintableList,
  TPrintPageDesign,
  TPrintTemplateDetail,
  TPrintTemplateExportDocument,
  TPrintTemplateList,
  TPrintTemplateQuery,
  TPrintTemplateVersionList,
  TRenderPrintInput,
  TUpdatePrintTemplateInput,
} from '@tessera/core/contracts/print-templates';
import type { TBindablePageList } from '@tessera/core/contracts/pages';
import { dataViews } from '@tessera/core/contracts/pages';
import type { TQueryViewDataResult } from '@tessera/core/contracts/business-data';
import { api } from '../../../shared/api/client.ts';
import { fetchFile } from '../../../shared/api/download.ts';

// The print templates API (packages/core/src/contracts/print-templates.ts), `/api/app/print-template`.
const PATH = '/app/print-template';

export const printTemplateKeys = {
  all: ['print-templates'] as const,
  list: (q: Partial<TPrintTemplateQuery>) => ['print-templates', 'list', q] as const,
  detail: (id: string) => ['print-templates', 'detail', id] as const,
  versions: (id: string) => ['print-templates', 'versions', id] as const,
  pageDesign: (pageId: string) => ['print-templates', 'page-design', pageId] as const,
  bindablePages: ['print-templates', 'bindable-pages'] as const,
  printables: (pageId: string) => ['print-templates', 'for-page', pageId] as const,
};

export const fetchPrintTemplates = (q: Partial<TPrintTemplateQuery>) => api.get<TPrintTemplateList>(PATH, q as Record<string, string | number | boolean | undefined>);
export const fetchPrintTemplate = (id: string) => api.get<TPrintTemplateDetail>(`${PATH}/${id}`);

export const usePrintTemplates = (q: Partial<TPrintTemplateQuery>) =>
  useQuery({ queryKey: printTemplateKeys.list(q), queryFn: () => fetchPrintTemplates(q), placeholderData: keepPreviousData });

/** The designer's copy: not refetched behind its back (a refetch would replace unsaved edits' base). */
export const usePrintTemplate = (id: string | null) =>
  useQuery({ queryKey: printTemplateKeys.detail(id ?? ''), queryFn: () => fetchPrintTemplate(id!), enabled: Boolean(id), refetchOnWindowFocus: false, staleTime: Infinity });

export const usePrintTemplateVersions = (id: string | null) =>
  useQuery({ queryKey: printTemplateKeys.versions(id ?? ''), queryFn: () => api.get<TPrintTemplateVersionList>(`${PATH}/${id}/versions`), enabled: Boolean(id) });

/** The bound page's latest published design: master fields for the picker, child views for tables. */
export const usePrintPageDesign = (pageId: string | null | undefined) =>
  useQuery({ queryKey: printTemplateKeys.pageDesign(pageId ?? ''), queryFn: () => api.get<TPrintPageDesign>(`${PATH}/page-design/${pageId}`), enabled: Boolean(pageId), staleTime: 60_000 });

/**
 * Published pages a template may bind to (`GET /bindable-pages`, the shape of the workflow's
 * `ZBindablePageList`): a print designer needs no page-designer permission to see them.
 */
export const useBindablePages = () =>
  useQuery({
    queryKey: printTemplateKeys.bindablePages,
    queryFn: async () => (await api.get<TBindablePageList>(`${PATH}/bindable-pages`, { SkipCount: 0, MaxResultCount: 1000 })).items,
    staleTime: 30_000,
  });

/** What the caller may print on a page (the runtime's print button). */
export const usePrintables = (pageId: string | null | undefined) =>
  useQuery({ queryKey: printTemplateKeys.printables(pageId ?? ''), queryFn: () => api.get<TPrintableList>(`${PATH}/for-page`, { pageId: pageId! }), enabled: Boolean(pageId), staleTime: 30_000 });

/** Silent: the designer shows a 409 (stale stamp) as its own message. */
export const savePrintTemplate = (id: string, input: TUpdatePrintTemplateInput) => api.put<TPrintTemplateDetail>(`${PATH}/${id}`, input, { silent: true });
export const publishPrintTemplate = (id: string, concurrencyStamp?: string) => api.post<TPrintTemplateDetail>(`${PATH}/${id}/publish`, { concurrencyStamp }, { silent: true });
export const exportPrintTemplate = (id: string) => api.get<TPrintTemplateExportDocument>(`${PATH}/${id}/export`);

/** A layout (saved or not) drawn as a PDF with a real record or sample data. */
export const previewPrint = async (input: TPreviewPrintInput) => (await fetchFile(`${PATH}/preview`, { method: 'POST', body: input })).blob;
/** Records of the template's page merged into one PDF (the published version). */
export const renderPrint = async (id: string, input: TRenderPrintInput) => fetchFile(`${PATH}/${id}/render`, { method: 'POST', body: input });

/** Opens a PDF blob in a new tab (the blob URL lives a minute, long enough for the viewer to read it). */
export function openPdf(blob: Blob): void {
  const url = URL.createObjectURL(blob.type === 'application/pdf' ? blob : new Blob([blob], { type: 'application/pdf' }));
  window.open(url, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function usePrintTemplateMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: printTemplateKeys.all }) });
}

export const useCreatePrintTemplate = () => usePrintTemplateMutation((input: TCreatePrintTemplateInput) => api.post<TPrintTemplateDetail>(PATH, input, { silent: true }));
export const useCopyPrintTemplate = () =>
  usePrintTemplateMutation((v: { id: string; name?: string }) => api.post<TPrintTemplateDetail>(`${PATH}/${v.id}/copy`, { name: v.name }, { silent: true }));
export const useDeletePrintTemplate = () => usePrintTemplateMutation((id: string) => api.delete<void>(`${PATH}/${id}`, { silent: true }));
export const usePublishPrintTemplate = () => usePrintTemplateMutation((v: { id: string; concurrencyStamp?: string }) => publishPrintTemplate(v.id, v.concurrencyStamp));
export const useSetPrintTemplateEnabled = () =>
  usePrintTemplateMutation((v: { id: string; enabled: boolean }) => api.post<TPrintTemplateDetail>(`${PATH}/${v.id}/${v.enabled ? 'enable' : 'disable'}`, {}, { silent: true }));
export const useRestorePrintTemplateVersion = () =>
  usePrintTemplateMutation((v: { id: string; version: number }) => api.post<TPrintTemplateDetail>(`${PATH}/${v.id}/versions/${v.version}/restore`, {}, { silent: true }));
export const useImportPrintTemplate = () => usePrintTemplateMutation((input: TImportPrintTemplateInput) => api.post<TPrintTemplateDetail>(`${PATH}/import`, input, { silent: true }));

/**
 * The page's 50 newest records as preview choices (label: its first master fields), read as the
 * designer may read them; none when the designer has no right to the page's data.
 */
export function useRecentRecords(pageId: string | null) {
  const design = usePrintPageDesign(pageId);
  const master = design.data ? (dataViews(design.data.definition).map(({ view }) => view).find((v) => !v.parentViewControlId) ?? null) : null;
  const records = useQuery({
    queryKey: ['print-templates', 'preview-records', pageId, master?.id],
    queryFn: () =>
      api.post<TQueryViewDataResult>('/app/business-data/query-view-data', { pageId, viewId: master!.id, Sorting: 'CreationTime desc', MaxResultCount: 50 }, { silent: true }),
    enabled: Boolean(pageId && master),
    retry: false,
    staleTime: 30_000,
  });
  const codes = (master?.dataControls ?? []).slice(0, 3).map((c) => c.code);
  return (records.data?.items ?? []).map((row) => {
    const id = String(row.Id);
    const text = codes.map((c) => records.data?.labels?.[c]?.[String(row[c])] ?? row[c]).filter((v) => v !== null && v !== undefined && v !== '').join(' · ');
    return { value: id, label: text ? `${text} (${id.slice(0, 8)})` : id };
  });
}
