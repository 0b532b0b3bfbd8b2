import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './database.ts';

// The embedded database runs in the request thread and answers through promises alone. A long run of
// queries (a print reading 500 records) must still let the event loop read sockets and fire timers
// between them, or every other request waits until the run ends (it did: 800 ms).
describe('the embedded database dialect', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openDatabase({ pgliteDataDir: 'memory://' });
  });
  afterAll(() => handle.close());

  it('lets the event loop turn between the queries of a long run', async () => {
    let done = 0;
    let firedAfter: number | null = null;
    setTimeout(() => (firedAfter = done), 0);
    for (let i = 0; i < 300; i++) {
      await sql`select ${i}::int as n`.execute(handle.db);
      done++;
    }
    expect(firedAfter).not.toBeNull();
    expect(firedAfter!).toBeLessThan(300);
  });

  it('keeps a transaction whole: a query asked for in its middle runs after the commit', async () => {
    await sql`create table t (n int)`.execute(handle.db);
    let outside: Promise<{ rows: { c: number }[] }> | null = null;
    await handle.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 50; i++) {
        await sql`insert into t values (${i})`.execute(trx);
        if (i === 10) outside = sql<{ c: number }>`select count(*)::int as c from t`.execute(handle.db);
      }
    });
    expect((await outside!).rows).toEqual([{ c: 50 }]);
  });
});
