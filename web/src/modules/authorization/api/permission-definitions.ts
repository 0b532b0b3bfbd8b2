import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TCreatePermissionDefinitionInput,
  TPagePermissionsInput,
  TPermissionDefinition,
  TPermissionDefinitionGroup,
  TUpdatePermissionDefinitionInput,
} from '@tessera/core/contracts/authorization';
import { api } from '../../../shared/api/client.ts';
import { permissionKeys } from './permissions.ts';

const PATH = '/app/permission-definitions';

export interface DefinitionQuery {
  SkipCount: number;
  MaxResultCount: number;
  Sorting?: string;
  Filter?: string;
  GroupName?: string;
}

export const definitionKeys = {
  all: ['permission-definitions'] as const,
  list: (q: DefinitionQuery) => ['permission-definitions', 'list', q] as const,
  groups: ['permission-definitions', 'groups'] as const,
};

export const useDefinitions = (q: DefinitionQuery) =>
  useQuery({
    queryKey: definitionKeys.list(q),
    queryFn: () => api.get<{ items: TPermissionDefinition[]; totalCount: number }>(PATH, { ...q }),
    placeholderData: keepPreviousData,
  });

export const useDefinitionGroups = () =>
  useQuery({
    queryKey: definitionKeys.groups,
    queryFn: () => api.get<{ items: TPermissionDefinitionGroup[] }>(`${PATH}/groups`),
  });

function useInvalidating<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: definitionKeys.all });
      await client.invalidateQueries({ queryKey: permissionKeys.all });
    },
  });
}

export const useCreateDefinition = () =>
  useInvalidating((input: TCreatePermissionDefinitionInput) => api.post<TPermissionDefinition>(PATH, input, { silent: true }));

export const useUpdateDefinition = () =>
  useInvalidating((v: { name: string; input: TUpdatePermissionDefinitionInput }) =>
    api.put<TPermissionDefinition>(`${PATH}/${encodeURIComponent(v.name)}`, v.input, { silent: true }),
  );

export const useDeleteDefinition = () => useInvalidating((name: string) => api.delete<void>(`${PATH}/${encodeURIComponent(name)}`));

export const useCreatePagePermissions = () =>
  useInvalidating((input: TPagePermissionsInput) =>
    api.post<{ created: string[]; existing: string[] }>(`${PATH}/page-permissions`, input, { silent: true }),
  );
