/**
 * Vitest global setup of the journeys: one migrated embedded database that every journey's server
 * starts from (a copy), instead of each server running initdb and every migration again. The
 * server still migrates (a no-op on the copy) and seeds at start, as on any restart.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../server/src/db/database.ts';
import { migrateToLatest } from '../server/src/db/migrator.ts';

// The keys provided here are declared where they are read.
import type {} from './product.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'tessera-e2e-template-'));
  const dataDir = path.join(dir, 'db');
  const database = await openDatabase({ pgliteDataDir: dataDir });
  await migrateToLatest(database.db);
  await database.close();
  project.provide('migratedDataDir', dataDir);
  return () => rm(dir, { recursive: true, force: true });
}
