import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TPermissionListResult, TProviderName, TUpdatePermissionsInput } from '@tessera/core/contracts/authorization';
import { api } from '../../../shared/api/client.ts';

const PATH = '/permission-management/permissions';

export const permissionKeys = {
  all: ['permission-management'] as const,
  /** The names come in the asker's language (business menus' titles among them): one entry per language. */
  of: (providerName: TProviderName, providerKey: string, language: string) => ['permission-management', providerName, providerKey, language] as const,
};

export const fetchPermissions = (providerName: TProviderName, providerKey: string) =>
  api.get<TPermissionListResult>(PATH, { providerName, providerKey });

/** `language`: the interface language; switching it asks again, showing the previous answer meanwhile. */
export const usePermissions = (providerName: TProviderName, providerKey: string | null, language: string) =>
  useQuery({
    queryKey: permissionKeys.of(providerName, providerKey ?? '', language),
    queryFn: () => fetchPermissions(providerName, providerKey!),
    enabled: !!providerKey,
    staleTime: 0,
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === (providerKey ?? '') && previousQuery?.queryKey[1] === providerName ? keepPreviousData(previous) : undefined),
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
