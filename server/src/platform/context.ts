/**
 * The service context: everything a service needs to do its work, without an HTTP request.
 *
 * Routes build it once per request (`requestContext`); a timer, worker or command-line tool builds
 * one with the system as actor (`systemContext`). Services take it as their first argument and
 * never import Fastify — so a workflow timer can approve a task, or a worker push a record, through
 * the same service a route calls. See docs/architecture.md ("A request's path", "A job's path").
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';
import type { AuthCache } from './access.ts';
import type { RequestUser } from './auth.ts';
import { cultureOfLanguage, type Culture } from './messages.ts';

export type Db = Kysely<Database>;

/** Who a log line or a failure report goes to (Fastify's pino logger, or any with the same calls). */
export type ContextLog = Pick<FastifyBaseLogger, 'error' | 'warn' | 'info' | 'debug'>;

export interface ServiceContext {
  /** The database; a service opens its own transaction where a write needs one. */
  readonly db: Db;
  /** The signed-in user the work is done for; null for an anonymous caller or the system itself. */
  readonly user: RequestUser | null;
  /** The system itself (a timer, a worker, a command-line tool): holds every permission. */
  readonly isSystem: boolean;
  /** The caller's languages as sent (`Accept-Language`), for localized texts in any language pack. */
  readonly acceptLanguage: string;
  /** The server-text culture (zh-CN or en-US) picked from the caller's languages. */
  readonly culture: Culture;
  /** The clock: one call per decision, so a test or a replaying job can fix it. */
  readonly now: () => Date;
  /** What the audit log and sessions record about the caller. */
  readonly client: { readonly ip: string | null; readonly userAgent: string | null; readonly requestId: string | null };
  /** Caches a write must invalidate (sessions and access lists of this node). */
  readonly caches: { readonly auth: AuthCache };
  /** Configuration the services read (secrets, password hashing cost, limits). */
  readonly config: AppConfig;
  readonly log: ContextLog;
}

/** What a context is built from: the application's shared parts. */
export type ContextHost = Pick<FastifyInstance, 'db' | 'authCache' | 'config' | 'log'>;

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's service context (built on first use, after the auth guard has run). */
    readonly ctx: ServiceContext;
  }
}

/** Gives every request its `ctx`, for route handlers to pass to services. */
export function registerRequestContext(app: FastifyInstance) {
  app.decorateRequest('ctx', {
    getter(this: FastifyRequest) {
      return requestContext(this);
    },
  });
}

const built = new WeakMap<FastifyRequest, ServiceContext>();

/** The context of an HTTP request: its user, languages and client; built once per request. */
export function requestContext(request: FastifyRequest): ServiceContext {
  const known = built.get(request);
  if (known) return known;
  const app = request.server;
  const acceptLanguage = String(request.headers['accept-language'] ?? '');
  const context: ServiceContext = {
    db: app.db,
    // Read live: the auth guard sets the user after the request arrived.
    get user() {
      return request.user ?? null;
    },
    isSystem: false,
    acceptLanguage,
    culture: cultureOfLanguage(acceptLanguage),
    now: () => new Date(),
    client: {
      ip: request.ip ?? null,
      userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
      requestId: request.id ? String(request.id) : null,
    },
    caches: { auth: app.authCache },
    config: app.config,
    log: request.log,
  };
  built.set(request, context);
  return context;
}

/**
 * The context of work the system does by itself (timers, workers, scheduled procedures, tools):
 * no user, every permission, audit entries without a client address.
 */
export function systemContext(host: ContextHost, options: { acceptLanguage?: string; now?: () => Date } = {}): ServiceContext {
  const acceptLanguage = options.acceptLanguage ?? 'zh-CN';
  return {
    db: host.db,
    user: null,
    isSystem: true,
    acceptLanguage,
    culture: cultureOfLanguage(acceptLanguage),
    now: options.now ?? (() => new Date()),
    client: { ip: null, userAgent: null, requestId: null },
    caches: { auth: host.authCache },
    config: host.config,
    log: host.log,
  };
}

/** The same work done for a user without a request (a job acting for the user who started it). */
export function userContext(host: ContextHost, user: RequestUser, options: { acceptLanguage?: string; now?: () => Date } = {}): ServiceContext {
  return { ...systemContext(host, options), user, isSystem: false };
}

/** Whether the actor holds a permission code (the system holds all). */
export function actorHolds(ctx: Pick<ServiceContext, 'user' | 'isSystem'>, code: string): boolean {
  return ctx.isSystem || !!ctx.user?.isAdmin || !!ctx.user?.access.has(code);
}

