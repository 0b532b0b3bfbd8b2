import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TPermissionListResult, TProviderName, TUpdatePermissionsInput } from '@tessera/core/contracts/authorization';
import { api } from '../../../shared/api/client.ts';

const PATH = '/permission-management/permissions';

export const permissionKeys = {
  all: ['permission-management'] as const,
  of: (providerName: TProviderName, providerKey: string) => ['permission-management', providerName, providerKey] as const,
};

export const fetchPermissions = (providerName: TProviderName, providerKey: string) =>
  api.get<TPermissionListResult>(PATH, { providerName, providerKey });

export const usePermissions = (providerName: TProviderName, providerKey: string | null) =>
  useQuery({
    queryKey: permissionKeys.of(providerName, providerKey ?? ''),
    queryFn: () => fetchPermissions(providerName, providerKey!),
    enabled: !!providerKey,
    staleTime: 0,
  });

export const updatePermissions = (providerName: TProviderName, providerKey: string, input: TUpdatePermissionsInput) =>
  api.put<void>(`${PATH}?${new URLSearchParams({ providerName, providerKey })}`, input);

export function useUpdatePermissions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { providerName: TProviderName; providerKey: string; input: TUpdatePermissionsInput }) =>
      updatePermissions(v.providerName, v.providerKey, v.input),
    // Inherited grants of users and units depend on roles and units too.
    onSuccess: () => client.invalidateQueries({ queryKey: permissionKeys.all }),
  });
}
