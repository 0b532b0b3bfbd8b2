import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Which published pages use a dictionary (the pages module registers the resolver for business
 * pages' drop-down controls). Deleting a dictionary, or changing its code, consults
 * every resolver and is refused naming the pages. Kept as a registry so other modules that come to
 * refer to dictionaries (print templates, data sources…) add their own resolver without this module
 * depending on them.
 */
export type DictionaryUsageResolver = (db: Kysely<Database>, dictionary: { id: string; code: string }) => Promise<string[]>;

const resolvers = new Set<DictionaryUsageResolver>();

/** Registers a resolver; returns a function that removes it again. */
export function registerDictionaryUsageResolver(resolver: DictionaryUsageResolver): () => void {
  resolvers.add(resolver);
  return () => {
    resolvers.delete(resolver);
  };
}

/** The names of the published pages that use the dictionary (deduplicated, in resolver order). */
export async function pagesUsingDictionary(db: Kysely<Database>, dictionary: { id: string; code: string }): Promise<string[]> {
  const names: string[] = [];
  for (const resolve of resolvers) names.push(...(await resolve(db, dictionary)));
  return [...new Set(names.filter(Boolean))];
}
