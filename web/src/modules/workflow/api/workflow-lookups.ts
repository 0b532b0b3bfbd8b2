import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TIdentityRole, TIdentityUser, TOrganizationUnitNode } from '@tessera/core/contracts/identity';
import type { TPageDefinitionList, TPageVersionDetail } from '@tessera/core/contracts/pages';
import { api } from '../../../shared/api/client.ts';

// Other modules' lists the workflow list and designer pick from, over their HTTP APIs.

/** Pages with a published version: a definition binds to one. */
export const usePublishedPages = () =>
  useQuery({
    queryKey: ['workflow', 'published-pages'],
    queryFn: async () => {
      const list = await api.get<TPageDefinitionList>('/app/page-definition', { SkipCount: 0, MaxResultCount: 1000, Sorting: 'code' });
      return list.items.filter((p) => p.publishedVersion !== null);
    },
    staleTime: 30_000,
  });

/** The bound page's latest published definition: its controls feed field permissions, pickers and formulas. */
export const usePublishedPageDefinition = (pageId: string | null | undefined, version: number | null | undefined) =>
  useQuery({
    queryKey: ['workflow', 'page-version', pageId, version],
    queryFn: () => api.get<TPageVersionDetail>(`/app/page-definition/${pageId}/versions/${version}`),
    enabled: Boolean(pageId && version),
    staleTime: Infinity,
  });

export const useRoles = () =>
  useQuery({
    queryKey: ['workflow', 'roles'],
    queryFn: () => api.get<{ items: TIdentityRole[]; totalCount: number }>('/identity/roles', { MaxResultCount: 1000, Sorting: 'name' }),
    staleTime: 60_000,
  });

export const useUnitTree = () => useQuery({ queryKey: ['workflow', 'unit-tree'], queryFn: () => api.get<TOrganizationUnitNode[]>('/identity/organization-units/tree'), staleTime: 60_000 });

/** Users matching a search (the picker's options). */
export const useUserSearch = (filter: string) =>
  useQuery({
    queryKey: ['workflow', 'users', filter],
    queryFn: () => api.get<{ items: TIdentityUser[]; totalCount: number }>('/identity/users', { Filter: filter || undefined, MaxResultCount: 50 }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** Users by id for names on nodes: the first 1000 users (ids not among them show as ids until picked). */
export const useUserDirectory = () =>
  useQuery({
    queryKey: ['workflow', 'user-directory'],
    queryFn: () => api.get<{ items: TIdentityUser[]; totalCount: number }>('/identity/users', { MaxResultCount: 1000 }),
    staleTime: 60_000,
  });
