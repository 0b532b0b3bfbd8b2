import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Which published pages use a dictionary. Deleting a dictionary, or changing its code, consults
 * every resolver and is refused naming the pages. Kept as a registry so other modules that come to
 * refer to dictionaries (print templates, data sources…) add their own resolver without this module
 * depending on them.
 */
export type DictionaryUsageResolver = (db: Kysely<Database>, dictionaryId: string) => Promise<string[]>;

const resolvers = new Set<DictionaryUsageResolver>();

/** Registers a resolver; returns a function that removes it again. */
export function registerDictionaryUsageResolver(resolver: DictionaryUsageResolver): () => void {
  resolvers.add(resolver);
  return () => {
    resolvers.delete(resolver);
  };
}

/** The names of the published pages that use the dictionary (deduplicated, in resolver order). */
export async function pagesUsingDictionary(db: Kysely<Database>, dictionaryId: string): Promise<string[]> {
  const names: string[] = [];
  for (const resolve of resolvers) names.push(...(await resolve(db, dictionaryId)));
  return [...new Set(names.filter(Boolean))];
}

/**
 * The built-in resolver: published page versions whose drop-down controls take their options from
 * the dictionary (`options: { dictionaryCode }` anywhere in the definition — the page-definition
 * document is the shared contract of packages/core/src/page-definition.ts). Only the published
 * version counts: a draft can still be changed by its designer, a published page is in use.
 * Read-only, one indexed join and a JSON path test per published page.
 */
export const publishedPagesUsingDictionary: DictionaryUsageResolver = async (db, dictionaryId) => {
  const dictionary = await db.selectFrom('dictionaries').select('code').where('id', '=', dictionaryId).executeTakeFirst();
  if (!dictionary) return [];
  const { rows } = await sql<{ name: string }>`
    select coalesce(nullif(p.name->>'zh-CN', ''), nullif(p.name->>'en-US', ''), p.code) as name
    from page_definitions p
    join page_definition_versions v on v.page_id = p.id and v.version = p.published_version
    where jsonb_path_exists(v.definition, 'lax $.**.options.dictionaryCode ? (@ == $code)', jsonb_build_object('code', ${dictionary.code}::text))
    order by p.code`.execute(db);
  return rows.map((r) => r.name);
};

registerDictionaryUsageResolver(publishedPagesUsingDictionary);
