import type { ReactNode } from 'react';
import { hasAccess, useSession } from '../auth/session.ts';

/** spec §6: does the signed-in user hold every one of the codes? Re-renders when the user changes. */
export function useAccess(codes: string | string[] | undefined): boolean {
  const user = useSession((s) => s.user);
  return hasAccess(user, codes);
}

/** A checker for several elements at once (`const can = useAccessChecker(); can(P.UsersCreate)`). */
export function useAccessChecker(): (codes: string | string[] | undefined) => boolean {
  const user = useSession((s) => s.user);
  return (codes) => hasAccess(user, codes);
}

/**
 * spec §6 auth directive: renders its children only when the user holds the required codes;
 * otherwise nothing (or `fallback`). The server enforces the same codes on its routes.
 */
export function Auth({ code, children, fallback = null }: { code: string | string[]; children: ReactNode; fallback?: ReactNode }) {
  return useAccess(code) ? children : fallback;
}
