/**
 * Every /api route declares who may call it in its `config.access`; a route that declares nothing
 * is refused (fail closed) and the route-table test fails.
 */
export type RouteAccess =
  | { kind: 'public' }
  | { kind: 'signedIn' }
  | { kind: 'permission'; code: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** Refused to personal API keys: the route needs a person's session (keys, password, sign-out). */
    sessionOnly?: boolean;
  }
}

export const publicRoute = (): { access: RouteAccess } => ({ access: { kind: 'public' } });
/** Any signed-in user (their own account, the current user, the server date). */
export const signedIn = (): { access: RouteAccess } => ({ access: { kind: 'signedIn' } });
/** Any signed-in user, with a session (not a personal API key). */
export const signedInWithSession = (): { access: RouteAccess; sessionOnly: true } => ({ access: { kind: 'signedIn' }, sessionOnly: true });
export const requirePermission = (code: string): { access: RouteAccess } => ({ access: { kind: 'permission', code } });
