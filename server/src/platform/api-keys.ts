/**
 * Personal API keys in the kernel (issue 29): how a request carries one, how it is hashed, and the
 * per-key request budget. Keys are created, listed and revoked by the api-keys module; the guard
 * (auth.ts) resolves them through AuthCache like sessions.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { API_KEY_PATTERN, API_KEY_PREFIX } from '@tessera/core/contracts/api-keys';
import type { Db } from './context.ts';

export const DEFAULT_API_KEY_RATE_LIMIT = 600;
/** How often a key's "last used" time and address are written (a busy key is not a write per call). */
const LAST_USED_EVERY_MS = 60_000;

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** A new key: the prefix and 32 random bytes, base64url. */
export function newApiKey(): { key: string; prefix: string; hash: string } {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, prefix: key.slice(0, API_KEY_PREFIX.length + 8), hash: hashApiKey(key) };
}

/**
 * The key a request carries: `X-API-Key: <key>`, or `Authorization: Bearer <key>` where the token
 * is a key rather than a session token. `undefined`: none sent; `null`: a malformed key.
 */
export function apiKeyOf(request: FastifyRequest, bearer: string | null): string | null | undefined {
  const header = request.headers['x-api-key'];
  if (header !== undefined) {
    const value = Array.isArray(header) ? header[0] : header;
    return value && API_KEY_PATTERN.test(value.trim()) ? value.trim() : null;
  }
  if (bearer?.startsWith(API_KEY_PREFIX)) return API_KEY_PATTERN.test(bearer) ? bearer : null;
  return undefined;
}

/** A fixed one-minute window per key and process: the calls left, or the seconds to wait. */
export class ApiKeyBudget {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly lastWritten = new Map<string, { at: number; ip: string | null }>();

  constructor(private readonly perMinute: number) {}

  /** Counts a call; answers 0 when it may go on, otherwise the seconds until the window ends. */
  take(keyId: string, now = Date.now()): number {
    let window = this.windows.get(keyId);
    if (!window || now - window.start >= 60_000) {
      if (this.windows.size > 10_000) this.windows.clear();
      window = { start: now, count: 0 };
      this.windows.set(keyId, window);
    }
    window.count += 1;
    return window.count <= this.perMinute ? 0 : Math.max(1, Math.ceil((window.start + 60_000 - now) / 1000));
  }

  /** Whether the key's last-used time and address are due to be written (at most once a minute, or a new address). */
  lastUsedDue(keyId: string, ip: string | null, now = Date.now()): boolean {
    const last = this.lastWritten.get(keyId);
    if (last && now - last.at < LAST_USED_EVERY_MS && last.ip === ip) return false;
    if (this.lastWritten.size > 10_000) this.lastWritten.clear();
    this.lastWritten.set(keyId, { at: now, ip });
    return true;
  }
}

export async function writeLastUsed(db: Db, keyId: string, ip: string | null): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: new Date(), last_used_ip: ip }).where('id', '=', keyId).execute();
}
