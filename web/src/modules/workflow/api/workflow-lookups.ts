import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TIdentityRole, TIdentityUser, TOrganizationUnitNode } from '@tessera/core/contracts/identity';
import type { TBindablePageList, TWorkflowPageDesign } from '@tessera/core/contracts/workflow';
import { api } from '../../../shared/api/client.ts';

// Other modules' lists the workflow list and designer pick from, over their HTTP APIs. The identity
// lists are silent: a flow designer without the identity permissions sees ids instead of names.

/**
 * Published pages a definition may bind to (`GET /app/workflow-definition/bindable-pages`: a flow
 * designer needs no page-designer permission to see them).
 */
export const usePublishedPages = () =>
  useQuery({
    queryKey: ['workflow', 'bindable-pages'],
    queryFn: async () => (await api.get<TBindablePageList>('/app/workflow-definition/bindable-pages', { SkipCount: 0, MaxResultCount: 1000 })).items,
    staleTime: 30_000,
  });

/** The bound page's latest published design: its controls feed field permissions, pickers and formulas. */
export const usePublishedPageDefinition = (pageId: string | null | undefined) =>
  useQuery({
    queryKey: ['workflow', 'page-design', pageId],
    queryFn: () => api.get<TWorkflowPageDesign>(`/app/workflow-definition/page-design/${pageId}`),
    enabled: Boolean(pageId),
    staleTime: 60_000,
  });

export const useRoles = () =>
  useQuery({
    queryKey: ['workflow', 'roles'],
    queryFn: () => api.get<{ items: TIdentityRole[]; totalCount: number }>('/identity/roles', { MaxResultCount: 1000, Sorting: 'name' }, { silent: true }),
    staleTime: 60_000,
  });

export const useUnitTree = () => useQuery({ queryKey: ['workflow', 'unit-tree'], queryFn: () => api.get<TOrganizationUnitNode[]>('/identity/organization-units/tree', undefined, { silent: true }), staleTime: 60_000 });

/** Users matching a search (the picker's options). */
export const useUserSearch = (filter: string) =>
  useQuery({
    queryKey: ['workflow', 'users', filter],
    queryFn: () => api.get<{ items: TIdentityUser[]; totalCount: number }>('/identity/users', { Filter: filter || undefined, MaxResultCount: 50 }, { silent: true }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** Users by id for names on nodes: the first 1000 users (ids not among them show as ids until picked). */
export const useUserDirectory = () =>
  useQuery({
    queryKey: ['workflow', 'user-directory'],
    queryFn: () => api.get<{ items: TIdentityUser[]; totalCount: number }>('/identity/users', { MaxResultCount: 1000 }, { silent: true }),
    staleTime: 60_000,
  });
