/**
 * Recovery: `npm run unlock-user -- <user name>` lifts a user's automatic lockout and an
 * administrator's lock, straight in the database. With the embedded database (PGlite) stop the
 * server first: only one process may open its folder. Against PostgreSQL it also works while the
 * server runs (other nodes notice within their 5-second cache).
 */
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrator.ts';
import { unlockUserByName } from '../db/unlock-user.ts';

const userName = process.argv[2]?.trim();
if (!userName) {
  console.error('Usage: npm run unlock-user -- <user name>');
  process.exit(2);
}
const config = await loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDataDir: config.pgliteDataDir });
try {
  await migrateToLatest(database.db);
  const row = await unlockUserByName(database.db, userName);
  if (!row) {
    console.error(`No user named "${userName}".`);
    process.exitCode = 1;
  } else {
    console.log(`Unlocked "${row.user_name}": failed sign-ins reset, automatic and administrator locks lifted.`);
    if (!row.is_active) console.log('Note: the account is disabled; an administrator can enable it on the users page.');
  }
} finally {
  await database.close();
}
