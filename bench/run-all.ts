/** Runs every `bench/<area>/*.bench.ts` in turn (set DATABASE_URL to measure on PostgreSQL). */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
const only = process.argv[2];
for (const area of readdirSync(here, { withFileTypes: true })) {
  if (!area.isDirectory() || area.name === 'lib' || area.name === 'node_modules') continue;
  if (only && area.name !== only) continue;
  for (const file of readdirSync(path.join(here, area.name)).filter((f) => f.endsWith('.bench.ts'))) {
    console.log(`\n## ${area.name}/${file}`);
    spawnSync(process.execPath, ['--import', 'tsx', path.join(here, area.name, file)], { stdio: 'inherit', cwd: path.resolve(here, '..') });
  }
}
