import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { getToken, loginPathFor, useSession } from '../shared/auth/session.ts';

/**
 * spec §2: auth routes need the token cookie; otherwise login with the full path as redirect
 * (none right after logging out: the page was the previous user's).
 * Subscribed to the session: signing out or an expired session (401) clears the user, and the
 * page goes to login at once instead of rendering for nobody (which would look like a 403).
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  const user = useSession((s) => s.user);
  if (!getToken() || !user) {
    return <Navigate to={loginPathFor(`${location.pathname}${location.search}`)} replace />;
  }
  return children;
}
