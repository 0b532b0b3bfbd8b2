import { useMutation } from '@tanstack/react-query';
import type { TChangePasswordInput, TLoginInput, TLoginResponse } from '@tessera/core/contracts/auth';
import { api, ApiError } from '../../../shared/api/client.ts';

export async function loginRequest(input: TLoginInput) {
  const res = await api.post<TLoginResponse>('/Auth/Login', input);
  // spec §8: a login answer with a non-zero code raises an error with its message and url.
  if (res.code !== 0 || !res.data) throw new ApiError(200, res.message, '/api/Auth/Login', res);
  return res.data;
}

export const useLogin = () => useMutation({ mutationFn: loginRequest });

export const logoutRequest = () => api.post<void>('/Auth/Logout', undefined, { silent: true });

export const changePasswordRequest = (input: TChangePasswordInput) =>
  api.post<{ message: string }>('/account/my-profile/change-password', input, { silent: true });

export const useChangePassword = () => useMutation({ mutationFn: changePasswordRequest });
