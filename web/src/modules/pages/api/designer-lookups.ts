import { useQuery } from '@tanstack/react-query';
import type { TRunnableProcedureList } from '@tessera/core/contracts/data-factory';
import type { TDataSourceQueryCatalog } from '@tessera/core/contracts/data-sources';
import type { TDictionaryList, TDictionaryOption } from '@tessera/core/contracts/dictionaries';
import type { TDocumentNumberRule } from '@tessera/core/contracts/document-numbers';
import type { TPageDefinitionList, TPageVersionDetail } from '@tessera/core/contracts/pages';
import { api } from '../../../shared/api/client.ts';

// Other modules' lists the designer's property widgets pick from.

export const useDocumentNumberRules = () =>
  useQuery({
    queryKey: ['designer', 'document-number-rules'],
    queryFn: () => api.get<{ items: TDocumentNumberRule[]; totalCount: number }>('/app/document-number', { SkipCount: 0, MaxResultCount: 1000 }),
    staleTime: 60_000,
  });

export const useDictionaries = () =>
  useQuery({
    queryKey: ['designer', 'dictionaries'],
    queryFn: () => api.get<TDictionaryList>('/app/business-dictionary', { SkipCount: 0, MaxResultCount: 1000 }),
    staleTime: 60_000,
  });

export const fetchDictionaryOptions = (dictionaryCode: string) =>
  api.get<{ items: TDictionaryOption[] }>('/app/business-dictionary/options', { dictionaryCode }, { silent: true });

/** Pages with a published version: lookups read from their views. */
export const usePublishedPages = () =>
  useQuery({
    queryKey: ['page-definitions', 'published-sources'],
    queryFn: async () => {
      const list = await api.get<TPageDefinitionList>('/app/page-definition', { SkipCount: 0, MaxResultCount: 1000, Sorting: 'code' });
      return list.items.filter((p) => p.publishedVersion !== null);
    },
    staleTime: 30_000,
  });

export const usePublishedDefinition = (pageId: string | null | undefined, version: number | null | undefined) =>
  useQuery({
    queryKey: ['page-definitions', 'version', pageId, version],
    queryFn: () => api.get<TPageVersionDetail>(`/app/page-definition/${pageId}/versions/${version}`),
    enabled: Boolean(pageId && version),
    staleTime: Infinity,
  });

/** Saved queries of the data sources that return rows: a lookup or option control may read one. */
export const useSourceQueries = () =>
  useQuery({
    queryKey: ['designer', 'source-queries'],
    queryFn: () => api.get<TDataSourceQueryCatalog>('/app/data-source/queries'),
    staleTime: 30_000,
  });

/** Data factory procedures the designer may run herself: the choices of a "run procedure" button (403 without the right: none). */
export const useRunnableProcedures = () =>
  useQuery({
    queryKey: ['designer', 'runnable-procedures'],
    queryFn: () => api.get<TRunnableProcedureList>('/app/data-factory/runnable', undefined, { silent: true }),
    staleTime: 60_000,
    retry: false,
  });
