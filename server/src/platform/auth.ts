import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jwtVerify, SignJWT } from 'jose';
import { uuidv7 } from './ids.ts';
import { apiKeyOf, ApiKeyBudget, DEFAULT_API_KEY_RATE_LIMIT, hashApiKey, writeLastUsed } from './api-keys.ts';
import { recordAudit } from './audit.ts';
import type { Db, ServiceContext } from './context.ts';
import { AppError, forbidden, unauthorized } from './errors.ts';

export interface RequestUser {
  id: string;
  userName: string;
  /** The given name and the surname as stored (either may be empty): `displayNameOf` forms the full name. */
  name: string;
  surname: string;
  avatar: string | null;
  /** The session the request came with; null when it came with a personal API key. */
  sessionId: string | null;
  /** The personal API key the request came with (issue 29), acting for its owner. */
  apiKey: { id: string; name: string; ownerIsAdmin: boolean } | null;
  /** An administrator's powers; false for an administrator's key narrowed to some codes. */
  isAdmin: boolean;
  access: Set<string>;
  organizationUnitId: string | null;
  organizationUnitName: string | null;
  organizationUnitIds: string[];
  /** The user's roles (from the cached access list). */
  roleIds: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    user: RequestUser | null;
  }
}

/** spec §4: the token cookie lives one day; the JWT and its session row match it. */
export const SESSION_TTL_SECONDS = 24 * 60 * 60;

/**
 * Opens a session for the user and answers its token (a JWT bound to the session row). Takes what
 * it needs from the context (the client's address and agent, the signing secret); `db` is the
 * caller's transaction when the session must appear with other writes (registration).
 */
export async function issueSession(
  ctx: Pick<ServiceContext, 'db' | 'client' | 'config'>,
  userId: string,
  db: Db = ctx.db,
): Promise<string> {
  const sessionId = uuidv7();
  const expiresAt = new Date(Date.now() + SESSION_TTL_SECONDS * 1000);
  await db
    .insertInto('sessions')
    .values({ id: sessionId, user_id: userId, expires_at: expiresAt, ip: ctx.client.ip ?? null, user_agent: ctx.client.userAgent?.slice(0, 500) ?? null })
    .execute();
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setJti(sessionId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(ctx.config.jwtSecret);
}

// Sessions belong to the kernel: modules end them through these (and invalidate ctx.caches.auth).

/** Ends one session (sign-out). */
export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: new Date() }).where('id', '=', sessionId).execute();
}

/** Ends every live (unexpired, unrevoked) session of the users; answers how many were ended. */
export async function revokeLiveSessions(db: Db, userIds: readonly string[]): Promise<number> {
  if (userIds.length === 0) return 0;
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: new Date() })
    .where('user_id', 'in', [...userIds])
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Ends every unrevoked session of a user but `keepSessionId` (the caller's own, when given). */
export async function revokeSessionsOfUser(db: Db, userId: string, options: { keepSessionId?: string } = {}): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: new Date() })
    .where('user_id', '=', userId)
    .$if(!!options.keepSessionId, (q) => q.where('id', '!=', options.keepSessionId!))
    .where('revoked_at', 'is', null)
    .execute();
}

/** How many live sessions a user has. */
export async function liveSessionCount(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', new Date())
    .executeTakeFirstOrThrow();
  return Number(row.n);
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

/**
 * Resolves the caller from a Bearer JWT bound to a live session of an active, unlocked user, or
 * from a live personal API key of one (`X-API-Key`, or a Bearer token that is a key).
 */
async function authenticate(app: FastifyInstance, request: FastifyRequest): Promise<RequestUser | null> {
  const token = bearerToken(request);
  const apiKey = apiKeyOf(request, token);
  if (apiKey !== undefined) return apiKey === null ? null : authenticateApiKey(app, apiKey);
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
    surname: sessionUser.surname,
    avatar: sessionUser.avatar,
    sessionId,
    apiKey: null,
    isAdmin: value.isAdmin,
    access: set,
    organizationUnitId: value.organizationUnitId,
    organizationUnitName: value.organizationUnitName,
    organizationUnitIds: value.organizationUnitIds,
    roleIds: value.roleIds,
  };
}

/**
 * A key acts as its owner: the owner's current codes (∩ the key's codes when it names some) and
 * the owner's data scopes. A narrowed key of an administrator holds only its codes, not the
 * administrator's powers, though it still sees every row as its owner does.
 */
async function authenticateApiKey(app: FastifyInstance, key: string): Promise<RequestUser | null> {
  const live = await app.authCache.apiKey(hashApiKey(key));
  if (!live) return null;
  const { value, set } = await app.authCache.accessOf(live.owner.id);
  const access = live.codes ? new Set(live.codes.filter((code) => set.has(code))) : set;
  return {
    id: live.owner.id,
    userName: live.owner.userName,
    name: live.owner.name,
    surname: live.owner.surname,
    avatar: live.owner.avatar,
    sessionId: null,
    apiKey: { id: live.id, name: live.name, ownerIsAdmin: value.isAdmin },
    isAdmin: value.isAdmin && !live.codes,
    access,
    organizationUnitId: value.organizationUnitId,
    organizationUnitName: value.organizationUnitName,
    organizationUnitIds: value.organizationUnitIds,
    roleIds: value.roleIds,
  };
}

const budgets = new WeakMap<FastifyInstance, ApiKeyBudget>();

/** The guard: authenticates every /api route that is not public and checks its permission code. */
export function registerAuthGuard(app: FastifyInstance) {
  app.decorateRequest('user', null);
  budgets.set(app, new ApiKeyBudget(app.config.apiKeyRateLimit ?? DEFAULT_API_KEY_RATE_LIMIT));
  // Every call made with a key is in the audit log, and the key's last use is kept (about once a
  // minute), both written before the answer leaves: a caller that got an answer is on record.
  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.user?.apiKey;
    if (!key) return payload;
    await recordAudit(request.ctx, 'ApiKeyUsed', {
      entityType: 'ApiKey',
      entityId: key.id,
      details: { name: key.name, method: request.method, route: request.routeOptions.url ?? request.url, status: reply.statusCode },
    });
    if (budgets.get(app)!.lastUsedDue(key.id, request.ip ?? null)) {
      await writeLastUsed(app.db, key.id, request.ip ?? null).catch((err: unknown) => request.log.error({ err }, 'api key last-used write failed'));
    }
    return payload;
  });
  app.addHook('onRequest', async (request, reply) => {
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
    if (user.apiKey) {
      const wait = budgets.get(app)!.take(user.apiKey.id);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        throw new AppError(429, 'TooManyRequests', 'error.tooManyRequests');
      }
      // Managing keys, the password and sign-out need a person's session: a key cannot renew itself.
      if (request.routeOptions.config?.sessionOnly) throw forbidden({ reason: 'SessionRequired' });
    }
    if (access?.kind === 'signedIn') return;
    if (access?.kind === 'permission' && user.access.has(access.code)) return;
    await recordAudit(request.ctx, 'PermissionDenied', {
      details: { route: request.routeOptions.url, method: request.method, permission: access?.kind === 'permission' ? access.code : null },
    });
    throw forbidden(access?.kind === 'permission' ? { permission: access.code } : { reason: 'route declares no access' });
  });
}
