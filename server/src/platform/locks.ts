import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Transaction-scoped advisory locks, for the few writes whose checks read rows they do not write
 * (a unit tree's codes, "is another administrator left", a workflow instance's next step). One
 * table of keys for the whole product, so two modules never pick the same number by accident.
 * Row locks (`select … for update`) stay in the repository of the rows' owner.
 */
export const ADVISORY_LOCKS = {
  /** identity: organisation unit codes (create, move, delete). */
  unitTree: 0x7e55_0101,
  /** identity: the last administrator may not be removed, locked or deleted. */
  administrators: 0x7e55_0102,
} as const;

export type AdvisoryLock = keyof typeof ADVISORY_LOCKS;

/** Holds the lock until the transaction ends (commit or rollback). Call with a transaction. */
export async function lockUntilCommit(trx: Kysely<Database>, lock: AdvisoryLock): Promise<void> {
  await sql`select pg_advisory_xact_lock(${ADVISORY_LOCKS[lock]})`.execute(trx);
}
