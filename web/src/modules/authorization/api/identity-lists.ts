import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TIdentityRole, TIdentityUser, TOrganizationUnitNode } from '@tessera/core/contracts/identity';
import { api } from '../../../shared/api/client.ts';

/** The roles, users and units that can receive grants (spec §3 selection types 4, 3, 1), from the identity API. */
export const useRoleChoices = (filter: string) =>
  useQuery({
    queryKey: ['authorization', 'roles', filter],
    queryFn: () => api.get<{ items: TIdentityRole[]; totalCount: number }>('/identity/roles', { Filter: filter, MaxResultCount: 1000, Sorting: 'name' }),
    placeholderData: keepPreviousData,
  });

export const useUserChoices = (filter: string, skip: number, take: number) =>
  useQuery({
    queryKey: ['authorization', 'users', filter, skip, take],
    queryFn: () =>
      api.get<{ items: TIdentityUser[]; totalCount: number }>('/identity/users', { Filter: filter, SkipCount: skip, MaxResultCount: take }),
    placeholderData: keepPreviousData,
  });

export const useUnitTree = () =>
  useQuery({
    queryKey: ['authorization', 'unit-tree'],
    queryFn: () => api.get<TOrganizationUnitNode[]>('/identity/organization-units/tree'),
  });
