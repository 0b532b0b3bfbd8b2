import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TAdminApiKeyList,
  TAdminApiKeyQuery,
  TApiKeyCodeGroups,
  TApiKeyCreated,
  TApiKeyCreateInput,
  TApiKeyList,
} from '@tessera/core/contracts/api-keys';
import { api } from '../../../shared/api/client.ts';

const MINE = '/app/my-api-keys';
const ALL = '/app/api-keys';

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  mine: ['api-keys', 'mine'] as const,
  codes: ['api-keys', 'codes'] as const,
  admin: (query: Partial<TAdminApiKeyQuery>) => ['api-keys', 'admin', query] as const,
};

export const useMyApiKeys = () => useQuery({ queryKey: apiKeyKeys.mine, queryFn: () => api.get<TApiKeyList>(MINE) });

export const useMyKeyCodes = (enabled: boolean) =>
  useQuery({ queryKey: apiKeyKeys.codes, queryFn: () => api.get<TApiKeyCodeGroups>(`${MINE}/codes`), enabled, staleTime: 60_000 });

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TApiKeyCreateInput) => api.post<TApiKeyCreated>(MINE, input, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useRevokeMyKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<null>(`${MINE}/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export const useAllApiKeys = (query: Partial<TAdminApiKeyQuery>) =>
  useQuery({
    queryKey: apiKeyKeys.admin(query),
    queryFn: () => api.get<TAdminApiKeyList>(ALL, query as Record<string, string | number | undefined>),
    placeholderData: keepPreviousData,
  });

export function useRevokeAnyKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<null>(`${ALL}/${id}/revoke`),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
