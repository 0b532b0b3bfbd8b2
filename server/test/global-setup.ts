/**
 * Vitest global setup: one migrated database that every server test file starts from, instead of
 * each file running initdb and all migrations again (PGlite's initdb alone took ~3 s a file).
 * Embedded: a PGlite data-dir dump in a temp file. PostgreSQL (DATABASE_URL): a template database
 * that each file's throwaway database is created from. Test files still run `migrateToLatest`
 * (a no-op on the copy), so a migration missing from the copy would still be applied.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { createThrowawayDatabase } from './throwaway-database.ts';

// The keys provided here are declared where they are read.
import type {} from './test-app.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const baseUrl = process.env.DATABASE_URL;
  if (baseUrl) {
    const template = await createThrowawayDatabase(baseUrl, 'tessera_template');
    const database = await openDatabase({ databaseUrl: template.url, pgliteDataDir: 'memory://', poolSize: 1 });
    await migrateToLatest(database.db);
    await database.close();
    project.provide('postgresTemplate', template.name);
    return () => template.drop();
  }
  const database = await openDatabase({ pgliteDataDir: 'memory://' });
  await migrateToLatest(database.db);
  const snapshot = await database.dumpDataDir!();
  await database.close();
  const dir = await mkdtemp(path.join(tmpdir(), 'tessera-test-db-'));
  const file = path.join(dir, 'migrated.tar');
  await writeFile(file, Buffer.from(await snapshot.arrayBuffer()));
  project.provide('pgliteSnapshot', file);
  return () => rm(dir, { recursive: true, force: true });
}
