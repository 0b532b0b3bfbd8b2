import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TCreateRoleInput, TIdentityRole, TRoleMember, TUpdateRoleInput } from '@tessera/core/contracts/identity';
import { api } from '../../../shared/api/client.ts';

const BASE = '/identity/roles';
export const roleKeys = { all: ['identity', 'roles'] as const };

export interface RoleListQuery {
  SkipCount: number;
  MaxResultCount: number;
  Sorting?: string;
  Filter?: string;
}

export const useRoles = (q: RoleListQuery) =>
  useQuery({
    queryKey: [...roleKeys.all, 'list', q],
    queryFn: () => api.get<{ items: TIdentityRole[]; totalCount: number }>(BASE, { ...q }),
    placeholderData: keepPreviousData,
  });

export const useRoleMembers = (id: string | null, q: RoleListQuery) =>
  useQuery({
    queryKey: [...roleKeys.all, 'members', id, q],
    queryFn: () => api.get<{ items: TRoleMember[]; totalCount: number }>(`${BASE}/${id}/members`, { ...q }),
    enabled: !!id,
    placeholderData: keepPreviousData,
  });

function useRoleMutation<TArgs, TResult>(fn: (args: TArgs) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: roleKeys.all }),
        client.invalidateQueries({ queryKey: ['identity', 'users'] }),
        client.invalidateQueries({ queryKey: ['selection-items'] }),
      ]),
  });
}

export const useCreateRole = () => useRoleMutation((input: TCreateRoleInput) => api.post<TIdentityRole>(BASE, input, { silent: true }));
export const useUpdateRole = () =>
  useRoleMutation(({ id, input, silent = true }: { id: string; input: TUpdateRoleInput; silent?: boolean }) => api.put<TIdentityRole>(`${BASE}/${id}`, input, { silent }));
export const useDeleteRole = () => useRoleMutation((id: string) => api.delete<void>(`${BASE}/${id}`));
export const useAddRoleMembers = () =>
  useRoleMutation(({ id, userIds }: { id: string; userIds: string[] }) => api.post<{ addedCount: number }>(`${BASE}/${id}/members`, { userIds }));
export const useRemoveRoleMember = () => useRoleMutation(({ id, userId }: { id: string; userId: string }) => api.delete<void>(`${BASE}/${id}/members/${userId}`));
