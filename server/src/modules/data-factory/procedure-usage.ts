import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Which published pages run a procedure from a button (the pages module registers the resolver).
 * Deleting a procedure consults every resolver and is refused naming the pages. A registry, so
 * this module does not depend on the modules that refer to procedures.
 */
export type ProcedureUsageResolver = (db: Kysely<Database>, procedureId: string) => Promise<string[]>;

const resolvers = new Set<ProcedureUsageResolver>();

/** Registers a resolver; returns a function that removes it again. */
export function registerProcedureUsage(resolver: ProcedureUsageResolver): () => void {
  resolvers.add(resolver);
  return () => {
    resolvers.delete(resolver);
  };
}

/** The names of the published pages that use the procedure (deduplicated, in resolver order). */
export async function pagesUsingProcedure(db: Kysely<Database>, procedureId: string): Promise<string[]> {
  const names: string[] = [];
  for (const resolve of resolvers) names.push(...(await resolve(db, procedureId)));
  return [...new Set(names)];
}
