import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TDataScopeList, TUpdateDataScopesInput } from '@tessera/core/contracts/authorization';
import { api } from '../../../shared/api/client.ts';

const PATH = '/app/data-scopes';
const key = (roleId: string) => ['data-scopes', roleId] as const;

export const useDataScopes = (roleId: string | null) =>
  useQuery({
    queryKey: key(roleId ?? ''),
    queryFn: () => api.get<TDataScopeList>(PATH, { roleId }),
    enabled: !!roleId,
    staleTime: 0,
  });

export function useUpdateDataScopes() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { roleId: string; input: TUpdateDataScopesInput }) =>
      api.put<TDataScopeList>(`${PATH}?${new URLSearchParams({ roleId: v.roleId })}`, v.input, { silent: true }),
    onSuccess: (data) => client.setQueryData(key(data.roleId), data),
  });
}
