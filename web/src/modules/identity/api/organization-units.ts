import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TOrganizationUnit,
  TOrganizationUnitMember,
  TOrganizationUnitNode,
  TUpdateOrganizationUnitInput,
} from '@tessera/core/contracts/identity';
import { api } from '../../../shared/api/client.ts';

const BASE = '/identity/organization-units';
export const unitKeys = {
  all: ['identity', 'units'] as const,
  tree: ['identity', 'units', 'tree'] as const,
  members: (id: string) => ['identity', 'units', 'members', id] as const,
};

export interface MembersQuery {
  SkipCount: number;
  MaxResultCount: number;
  Sorting?: string;
  Filter?: string;
  IncludeChildren?: boolean;
}

export const useUnitTree = () => useQuery({ queryKey: unitKeys.tree, queryFn: () => api.get<TOrganizationUnitNode[]>(`${BASE}/tree`) });

export const useUnitMembers = (id: string | null, q: MembersQuery) =>
  useQuery({
    queryKey: [...unitKeys.members(id ?? ''), q],
    queryFn: () => api.get<{ items: TOrganizationUnitMember[]; totalCount: number }>(`${BASE}/${id}/members`, { ...q }),
    enabled: !!id,
    placeholderData: keepPreviousData,
  });

function useUnitMutation<TArgs, TResult>(fn: (args: TArgs) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    // Units, their counts and the users' unit columns all change together.
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: unitKeys.all }), client.invalidateQueries({ queryKey: ['identity', 'users'] })]),
  });
}

export const useCreateUnit = () =>
  useUnitMutation((input: { displayName: string; parentId: string | null }) => api.post<TOrganizationUnit>(BASE, input, { silent: true }));

export const useUpdateUnit = () =>
  useUnitMutation(({ id, input }: { id: string; input: TUpdateOrganizationUnitInput }) => api.put<TOrganizationUnit>(`${BASE}/${id}`, input, { silent: true }));

/** Without `cascade` the server refuses a unit that has sub-units or members (400 OrganizationUnitNotEmpty). */
export const useDeleteUnit = () =>
  useUnitMutation(({ id, cascade }: { id: string; cascade: boolean }) => api.delete<void>(`${BASE}/${id}${cascade ? '?cascade=true' : ''}`, { silent: true }));

export const useAddUnitMembers = () =>
  useUnitMutation(({ id, userIds }: { id: string; userIds: string[] }) => api.post<{ addedCount: number }>(`${BASE}/${id}/members`, { userIds }));

export const useRemoveUnitMember = () =>
  useUnitMutation(({ id, userId }: { id: string; userId: string }) => api.delete<void>(`${BASE}/${id}/members/${userId}`));

export const useSetUnitLeader = () =>
  useUnitMutation(({ id, userId }: { id: string; userId: string | null }) => api.put<TOrganizationUnit>(`${BASE}/${id}/members/leader`, { userId }));
