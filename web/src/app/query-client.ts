import { QueryClient } from '@tanstack/react-query';
import { useSession } from '../shared/auth/session.ts';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

// Cached answers belong to the user who asked: when the signed-in user changes (sign-out, an
// expired session, another user signing in without signing out), nothing of theirs may show.
useSession.subscribe((state, previous) => {
  if (state.user?.userId !== previous.user?.userId) queryClient.clear();
});
