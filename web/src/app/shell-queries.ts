import { queryOptions } from '@tanstack/react-query';
import type { TCurrentUser } from '@tessera/core/contracts/auth';
import { api } from '../shared/api/client.ts';

/** The signed-in user, asked again by the shell (access may have changed since sign-in). */
export const currentUserQuery = (userId: string | undefined) =>
  queryOptions({ queryKey: ['current-user', userId], queryFn: () => api.get<TCurrentUser>('/app/sys-function/current-user'), staleTime: 60_000 });
