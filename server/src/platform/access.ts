import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface UserAccess {
  isAdmin: boolean;
  access: string[];
  organizationUnitId: string | null;
  organizationUnitName: string | null;
  organizationUnitIds: string[];
  /** The user's roles (data scopes are set per role). */
  roleIds: string[];
}

export const ADMIN_ROLE_NAME = 'admin';
/** How long a node trusts its cached sessions and access lists (other nodes' changes). */
const CACHE_TTL_MS = 5_000;

/**
 * A user's access = own grants ∪ grants of their roles ∪ grants of their organisation units and
 * the units above them (docs/architecture.md, "Security"). The admin role holds every defined permission.
 */
export async function loadUserAccess(db: Kysely<Database>, userId: string): Promise<UserAccess> {
  const result = await sql<{
    is_admin: boolean;
    access: string[] | null;
    ou_id: string | null;
    ou_name: string | null;
    ou_ids: string[] | null;
    role_ids: string[] | null;
  }>`
    with my_roles as (
      select r.id, r.name from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = ${userId}
    ), my_units as (
      select ou.id, ou.code, ou.display_name from user_organization_units uou
      join organization_units ou on ou.id = uou.organization_unit_id
      where uou.user_id = ${userId}
    ), unit_keys as (
      select distinct up.id::text as key from my_units mu
      join organization_units up on mu.code = up.code or mu.code like up.code || '.%'
    ), is_admin as (
      select exists (select 1 from my_roles where lower(name) = ${ADMIN_ROLE_NAME}) as v
    )
    select
      (select v from is_admin) as is_admin,
      case when (select v from is_admin)
        then (select array_agg(name order by name) from permission_definitions)
        else (select array_agg(distinct g.name order by g.name) from permission_grants g
              where (g.provider_name = 'U' and g.provider_key = ${userId})
                 or (g.provider_name = 'R' and g.provider_key in (select id::text from my_roles))
                 or (g.provider_name = 'OU' and g.provider_key in (select key from unit_keys)))
      end as access,
      (select id::text from my_units order by code limit 1) as ou_id,
      (select display_name from my_units order by code limit 1) as ou_name,
      (select array_agg(id::text order by code) from my_units) as ou_ids,
      (select array_agg(id::text order by id) from my_roles) as role_ids
  `.execute(db);
  const row = result.rows[0]!;
  return {
    isAdmin: row.is_admin,
    access: row.access ?? [],
    organizationUnitId: row.ou_id,
    organizationUnitName: row.ou_name,
    organizationUnitIds: row.ou_ids ?? [],
    roleIds: row.role_ids ?? [],
  };
}

export interface SessionUser {
  id: string;
  userName: string;
  /** The given name and the surname as stored (either may be empty); `personDisplayName` forms the full name. */
  name: string;
  surname: string;
  avatar: string | null;
}

/** A live personal API key (unrevoked, unexpired, of an active and unlocked owner). */
export interface LiveApiKey {
  id: string;
  name: string;
  /** Null: every code the owner holds. */
  codes: string[] | null;
  expiresAt: Date | null;
  owner: SessionUser;
}

interface Cached<T> {
  value: T;
  at: number;
}

/**
 * Per-node cache of live sessions and access lists, so a guarded read costs a JWT check and two
 * map look-ups instead of a session query and a grant join. Every local change that affects them
 * (logout, revocation, lock, delete, grants, roles, memberships) invalidates at once; the short TTL
 * bounds how long another node may lag.
 */
export class AuthCache {
  private readonly sessions = new Map<string, Cached<SessionUser>>();
  private readonly access = new Map<string, Cached<{ value: UserAccess; set: Set<string> }>>();
  private readonly apiKeys = new Map<string, Cached<LiveApiKey>>();

  constructor(private readonly db: Kysely<Database>) {}

  async session(sessionId: string, userId: string): Promise<SessionUser | null> {
    const hit = this.sessions.get(sessionId);
    if (hit && Date.now() - hit.at < CACHE_TTL_MS && hit.value.id === userId) return hit.value;
    const now = new Date();
    const row = await this.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['u.id', 'u.user_name', 'u.name', 'u.surname', 'u.avatar'])
      .where('s.id', '=', sessionId)
      .where('s.user_id', '=', userId)
      .where('s.revoked_at', 'is', null)
      .where('s.expires_at', '>', now)
      .where('u.is_active', '=', true)
      .where('u.is_deleted', '=', false)
      .where((eb) => eb.or([eb('u.lockout_end', 'is', null), eb('u.lockout_end', '<=', now)]))
      .executeTakeFirst();
    if (!row) {
      this.sessions.delete(sessionId);
      return null;
    }
    const value = { id: row.id, userName: row.user_name, name: row.name, surname: row.surname, avatar: row.avatar };
    this.sessions.set(sessionId, { value, at: Date.now() });
    return value;
  }

  /** The live key with this hash (a personal API key's SHA-256), or null. */
  async apiKey(keyHash: string): Promise<LiveApiKey | null> {
    const hit = this.apiKeys.get(keyHash);
    if (hit && Date.now() - hit.at < CACHE_TTL_MS) return hit.value.expiresAt && hit.value.expiresAt.getTime() <= Date.now() ? null : hit.value;
    const now = new Date();
    const row = await this.db
      .selectFrom('api_keys as k')
      .innerJoin('users as u', 'u.id', 'k.user_id')
      .select(['k.id as key_id', 'k.name as key_name', 'k.codes', 'k.expires_at', 'u.id', 'u.user_name', 'u.name', 'u.surname', 'u.avatar'])
      .where('k.key_hash', '=', keyHash)
      .where('k.revoked_at', 'is', null)
      .where((eb) => eb.or([eb('k.expires_at', 'is', null), eb('k.expires_at', '>', now)]))
      .where('u.is_active', '=', true)
      .where('u.is_deleted', '=', false)
      .where((eb) => eb.or([eb('u.lockout_end', 'is', null), eb('u.lockout_end', '<=', now)]))
      .executeTakeFirst();
    if (!row) {
      this.apiKeys.delete(keyHash);
      return null;
    }
    const value: LiveApiKey = {
      id: row.key_id,
      name: row.key_name,
      codes: row.codes,
      expiresAt: row.expires_at,
      owner: { id: row.id, userName: row.user_name, name: row.name, surname: row.surname, avatar: row.avatar },
    };
    this.apiKeys.set(keyHash, { value, at: Date.now() });
    return value;
  }

  /** A key was revoked: refused from the next request on this node. */
  invalidateApiKey(keyId: string) {
    for (const [key, entry] of this.apiKeys) if (entry.value.id === keyId) this.apiKeys.delete(key);
  }

  async accessOf(userId: string): Promise<{ value: UserAccess; set: Set<string> }> {
    const hit = this.access.get(userId);
    if (hit && Date.now() - hit.at < CACHE_TTL_MS) return hit.value;
    const value = await loadUserAccess(this.db, userId);
    const entry = { value, set: new Set(value.access) };
    this.access.set(userId, { value: entry, at: Date.now() });
    return entry;
  }

  invalidateSession(sessionId: string) {
    this.sessions.delete(sessionId);
  }

  /** A user's sessions or profile changed (lock, delete, revoke, rename, roles, units). */
  invalidateUser(userId: string) {
    for (const [key, entry] of this.sessions) if (entry.value.id === userId) this.sessions.delete(key);
    for (const [key, entry] of this.apiKeys) if (entry.value.owner.id === userId) this.apiKeys.delete(key);
    this.access.delete(userId);
  }

  /** Grants, roles or permission definitions changed: every access list may differ. */
  invalidateAccess() {
    this.access.clear();
  }
}
