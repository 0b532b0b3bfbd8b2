import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jwtVerify, SignJWT } from 'jose';
import { v7 as uuidv7 } from 'uuid';
import { recordAudit } from './audit.ts';
import { forbidden, unauthorized } from './errors.ts';

export interface RequestUser {
  id: string;
  userName: string;
  name: string;
  avatar: string | null;
  sessionId: string;
  isAdmin: boolean;
  access: Set<string>;
  organizationUnitId: string | null;
  organizationUnitName: string | null;
  organizationUnitIds: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    user: RequestUser | null;
  }
}

/** spec §4: the token cookie lives one day; the JWT and its session row match it. */
export const SESSION_TTL_SECONDS = 24 * 60 * 60;

export async function issueSession(
  app: FastifyInstance,
  userId: string,
  meta: { ip?: string; userAgent?: string },
  db = app.db,
): Promise<string> {
  const sessionId = uuidv7();
  const expiresAt = new Date(Date.now() + SESSION_TTL_SECONDS * 1000);
  await db
    .insertInto('sessions')
    .values({ id: sessionId, user_id: userId, expires_at: expiresAt, ip: meta.ip ?? null, user_agent: meta.userAgent?.slice(0, 500) ?? null })
    .execute();
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setJti(sessionId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(app.config.jwtSecret);
}

/** RFC 9110 §11.1: the scheme name is case-insensitive (`bearer`, `BEARER`). */
function bearerToken(request: FastifyRequest): string | null {
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
}

// Verified token → claims, so the signature is checked once per token rather than per request
// (the session row, checked through AuthCache, still decides whether the token is live).
type Claims = { sub: string; jti: string; exp: number };
const verifiedByApp = new WeakMap<FastifyInstance, Map<string, Claims>>();
const VERIFIED_TOKENS_MAX = 10_000;

async function verifyToken(app: FastifyInstance, token: string) {
  let verifiedTokens = verifiedByApp.get(app);
  if (!verifiedTokens) verifiedByApp.set(app, (verifiedTokens = new Map()));
  const hit = verifiedTokens.get(token);
  if (hit) {
    if (hit.exp * 1000 > Date.now()) return hit;
    verifiedTokens.delete(token);
    return null;
  }
  try {
    const { payload } = await jwtVerify(token, app.config.jwtSecret, { algorithms: ['HS256'] });
    if (!payload.jti || !payload.sub || !payload.exp) return null;
    const claims = { sub: payload.sub, jti: payload.jti, exp: payload.exp };
    if (verifiedTokens.size >= VERIFIED_TOKENS_MAX) verifiedTokens.delete(verifiedTokens.keys().next().value!);
    verifiedTokens.set(token, claims);
    return claims;
  } catch {
    return null;
  }
}

/** Resolves the caller from a Bearer JWT bound to a live session of an active, unlocked user. */
async function authenticate(app: FastifyInstance, request: FastifyRequest): Promise<RequestUser | null> {
  const token = bearerToken(request);
  if (!token) return null;
  const claims = await verifyToken(app, token);
  if (!claims) return null;
  const sessionId = claims.jti;
  const userId = claims.sub;
  if (!/^[0-9a-f-]{36}$/i.test(sessionId) || !/^[0-9a-f-]{36}$/i.test(userId)) return null;
  const sessionUser = await app.authCache.session(sessionId, userId);
  if (!sessionUser) return null;
  const { value, set } = await app.authCache.accessOf(userId);
  return {
    id: userId,
    userName: sessionUser.userName,
    name: sessionUser.name,
    avatar: sessionUser.avatar,
    sessionId,
    isAdmin: value.isAdmin,
    access: set,
    organizationUnitId: value.organizationUnitId,
    organizationUnitName: value.organizationUnitName,
    organizationUnitIds: value.organizationUnitIds,
  };
}

/** The guard: authenticates every /api route that is not public and checks its permission code. */
export function registerAuthGuard(app: FastifyInstance) {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    // Decided by the route's declaration, not by its URL: under a BASE_PATH (or any other prefix)
    // a URL test would wave every route through. Unknown URLs go on to the 404 answer.
    if (request.is404) return;
    const access = request.routeOptions.config?.access;
    if (access?.kind === 'public') {
      // Public routes still learn who is calling when a valid token is sent.
      if (bearerToken(request)) request.user = await authenticate(app, request);
      return;
    }
    const user = await authenticate(app, request);
    if (!user) throw unauthorized();
    request.user = user;
    if (access?.kind === 'signedIn') return;
    if (access?.kind === 'permission' && user.access.has(access.code)) return;
    await recordAudit(request, 'PermissionDenied', {
      details: { route: request.routeOptions.url, method: request.method, permission: access?.kind === 'permission' ? access.code : null },
    });
    throw forbidden(access?.kind === 'permission' ? { permission: access.code } : { reason: 'route declares no access' });
  });
}
