import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TCreateUserInput, TIdentityUser, TImportUsersResult, TLockUserInput, TUpdateUserInput } from '@tessera/core/contracts/identity';
import { api } from '../../../shared/api/client.ts';
import { downloadFile } from '../../../shared/api/download.ts';
import { uploadFile } from '../../../shared/api/upload.ts';

const BASE = '/identity/users';
export const userKeys = { all: ['identity', 'users'] as const };

export interface UserListQuery {
  SkipCount: number;
  MaxResultCount: number;
  Sorting?: string;
  Filter?: string;
  OrganizationUnitId?: string;
  IncludeChildUnits?: boolean;
  RoleId?: string;
  IsActive?: boolean;
  IsLockedOut?: boolean;
}

export const useUsers = (q: UserListQuery) =>
  useQuery({
    queryKey: [...userKeys.all, 'list', q],
    queryFn: () => api.get<{ items: TIdentityUser[]; totalCount: number }>(BASE, { ...q }),
    placeholderData: keepPreviousData,
  });

export const fetchUser = (id: string) => api.get<TIdentityUser>(`${BASE}/${id}`);

export const useAssignableRoles = () =>
  useQuery({
    queryKey: [...userKeys.all, 'assignable-roles'],
    queryFn: () => api.get<{ items: { id: string; name: string; isDefault: boolean }[] }>(`${BASE}/assignable-roles`),
    staleTime: 60_000,
  });

function useUserMutation<TArgs, TResult>(fn: (args: TArgs) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: userKeys.all }),
        client.invalidateQueries({ queryKey: ['identity', 'units'] }),
        client.invalidateQueries({ queryKey: ['identity', 'roles'] }),
        client.invalidateQueries({ queryKey: ['selection-items'] }),
      ]),
  });
}

// Form saves are silent: the form shows field errors and the 409 dialog itself.
export const useCreateUser = () => useUserMutation((input: TCreateUserInput) => api.post<TIdentityUser>(BASE, input, { silent: true }));
export const useUpdateUser = () =>
  useUserMutation(({ id, input }: { id: string; input: TUpdateUserInput }) => api.put<TIdentityUser>(`${BASE}/${id}`, input, { silent: true }));
export const useDeleteUser = () => useUserMutation((id: string) => api.delete<void>(`${BASE}/${id}`));
export const useLockUser = () => useUserMutation(({ id, input }: { id: string; input: TLockUserInput }) => api.post<TIdentityUser>(`${BASE}/${id}/lock`, input));
export const useUnlockUser = () => useUserMutation((id: string) => api.post<TIdentityUser>(`${BASE}/${id}/unlock`));
export const useResetPassword = () =>
  useUserMutation(({ id, newPassword }: { id: string; newPassword: string }) => api.post<void>(`${BASE}/${id}/reset-password`, { newPassword }, { silent: true }));
export const useRevokeSessions = () => useUserMutation((id: string) => api.post<{ revokedCount: number }>(`${BASE}/${id}/revoke-sessions`));
/** Sends the workbook as it is; 400 with `details.rows` lists every row error, the dialog shows them. */
export const useImportUsers = () =>
  useUserMutation(({ file, onProgress }: { file: File; onProgress?: (percent: number) => void }) =>
    uploadFile<TImportUsersResult>(`${BASE}/import`, file, { query: { fileName: file.name }, onProgress }),
  );

export const downloadUserTemplate = () => downloadFile(`${BASE}/import-template`, { fallbackName: 'user-import-template.xlsx' });
export const downloadUserExport = (q: Omit<UserListQuery, 'SkipCount' | 'MaxResultCount'>) => downloadFile(`${BASE}/export`, { query: { ...q }, fallbackName: 'users.xlsx' });
