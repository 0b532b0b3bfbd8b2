import type { ServiceContext } from '../../platform/context.ts';
import type { Kysely } from 'kysely';
import type { TLanguageDictionary, TNestedTexts } from '@tessera/core/contracts/localization';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { BUILT_IN_TEXTS } from './built-in-texts.ts';
import { l10nText } from './localization.messages.ts';
import * as repo from './localization.repository.ts';

type Db = Kysely<Database>;

export interface CachedDictionary {
  culture: string;
  version: number;
  dictionary: TLanguageDictionary;
  /** The JSON answer, built once per version. */
  body: string;
}

/**
 * One dictionary per culture and database, tagged with the version it was built at. Every write
 * bumps the version in the same transaction, so a node compares one row and rebuilds only after
 * a change — also a change made by another node.
 */
const caches = new WeakMap<Db, Map<string, CachedDictionary>>();

function cacheOf(db: Db) {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  return cache;
}

/** Drops this node's dictionaries at once after a change (the version check covers other nodes). */
export function invalidateDictionaries(db: Db) {
  cacheOf(db).clear();
}

/** Sets `a.b.c` in nested texts; a text replaces a group or a text already at the path. */
export function setNested(target: TNestedTexts, key: string, value: string) {
  const parts = key.split('.');
  let at = target;
  for (const part of parts.slice(0, -1)) {
    const next = Object.hasOwn(at, part) ? at[part] : undefined;
    if (typeof next === 'object' && next !== null) at = next;
    else at = at[part] = Object.create(null) as TNestedTexts;
  }
  at[parts[parts.length - 1]!] = value;
}

/** Nested texts as `[key, value]` pairs with dotted keys. */
export function flattenNested(texts: TNestedTexts, prefix = ''): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [k, v] of Object.entries(texts)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) out.push(...flattenNested(v as TNestedTexts, key));
    else out.push([key, v]);
  }
  return out;
}

/** The server's built-in texts of a culture (a deep copy). */
export function builtInTexts(culture: string): TLanguageDictionary {
  return structuredClone(BUILT_IN_TEXTS[culture] ?? {});
}

/** Built-in texts with the administrators' texts laid over them, nested by namespace. */
export async function buildDictionary(db: Db, culture: string): Promise<TLanguageDictionary> {
  const dictionary = builtInTexts(culture);
  for (const row of await repo.textsOfCulture(db, culture)) {
    if (!Object.hasOwn(dictionary, row.resource_name)) dictionary[row.resource_name] = Object.create(null) as TNestedTexts;
    setNested(dictionary[row.resource_name]!, row.key, row.value);
  }
  return dictionary;
}

/** The dictionary of an enabled pack, from the cache while the version is unchanged. */
export async function languageDictionary(ctx: ServiceContext, culture: string): Promise<CachedDictionary> {
  const version = await repo.currentVersion(ctx.db);
  const cache = cacheOf(ctx.db);
  const cached = cache.get(culture.toLowerCase());
  if (cached && cached.version === version) return cached;
  const pack = await repo.findPackByCulture(ctx.db, culture);
  if (!pack || !pack.is_enabled) {
    throw new AppError(404, 'NotFound', null, { message: l10nText(ctx, 'pack.unknownCulture', { culture }), details: { culture } });
  }
  const dictionary = await buildDictionary(ctx.db, pack.culture);
  const entry = { culture: pack.culture, version, dictionary, body: JSON.stringify(dictionary) };
  cache.set(culture.toLowerCase(), entry);
  return entry;
}
