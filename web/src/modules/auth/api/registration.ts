import { useMutation, useQuery } from '@tanstack/react-query';
import type { TCaptcha, TRegisterInput, TRegistrationOptions } from '@tessera/core/contracts/auth';
import type { TCurrentUser } from '@tessera/core/contracts/auth';
import { api, ApiError } from '../../../shared/api/client.ts';

/** Public: is registration open, and the password policy (the login page shows its link only when open). */
export const useRegistrationOptions = () =>
  useQuery({
    queryKey: ['register', 'options'],
    queryFn: () => api.get<TRegistrationOptions>('/register/options', undefined, { silent: true, quietUnauthorized: true }),
    staleTime: 60_000,
    retry: false,
  });

/** A fresh proof-of-work challenge (valid 2 minutes, single use). */
export const fetchCaptcha = () => api.get<TCaptcha>('/register/captcha', undefined, { silent: true });

interface RegisterResponse {
  code: number;
  message: string;
  data: { uuid: string; token: string; isAdmin: boolean; info: TCurrentUser & { id: string } } | null;
}

export async function registerRequest(input: TRegisterInput) {
  const res = await api.post<RegisterResponse>('/register', input, { silent: true });
  if (res.code !== 0 || !res.data) throw new ApiError(200, res.message, '/api/register', res);
  // spec §1: registering signs the user in at once.
  return { accessToken: res.data.token, isAdmin: res.data.isAdmin, user: res.data.info };
}

export const useRegister = () => useMutation({ mutationFn: registerRequest });
