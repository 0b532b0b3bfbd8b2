import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import * as m0001 from './migrations/0001-platform.ts';
import * as m0003 from './migrations/0003-jobs.ts';
import * as m0002 from './migrations/0002-sign-in-security.ts';
import * as m0100 from './migrations/0100-identity.ts';
import * as m0101 from './migrations/0101-identity-search.ts';
import * as m0200 from './migrations/0200-authorization.ts';
import * as m0500 from './migrations/0500-notifications.ts';
import * as m0300 from './migrations/0300-localization.ts';
import * as m0301 from './migrations/0301-help.ts';
import * as m0302 from './migrations/0302-help-seed.ts';
import * as m0303 from './migrations/0303-help-translations.ts';
import * as m0400 from './migrations/0400-dictionaries.ts';
import * as m0401 from './migrations/0401-document-numbers.ts';
import * as m0600 from './migrations/0600-pages.ts';
import * as m0601 from './migrations/0601-pages-casts.ts';
import * as m0602 from './migrations/0602-pages-default-actions.ts';
import * as m0700 from './migrations/0700-business-data.ts';
import * as m0800 from './migrations/0800-files.ts';
import * as m0900 from './migrations/0900-workflow.ts';
import * as m0901 from './migrations/0901-workflow-engine.ts';
import * as m0902 from './migrations/0902-workflow-signers.ts';
import * as m0903 from './migrations/0903-workflow-task-lists.ts';
import * as m0904 from './migrations/0904-live-signals.ts';
import * as m0905 from './migrations/0905-api-keys.ts';
import * as m0906 from './migrations/0906-print-templates.ts';
import * as m0907 from './migrations/0907-data-sources.ts';
import * as m0908 from './migrations/0908-data-source-methods.ts';
import * as m0909 from './migrations/0909-data-source-mssql.ts';
import * as m0910 from './migrations/0910-data-source-http.ts';
import * as m1000 from './migrations/1000-data-factory.ts';
import * as m1001 from './migrations/1001-data-factory-external.ts';
import * as m1002 from './migrations/1002-data-factory-permissions.ts';
import * as m1003 from './migrations/1003-data-factory-schedules.ts';
import * as m1004 from './migrations/1004-own-data-source.ts';

/** Migrations are listed here in order; a new module appends its file. */
const migrations: Record<string, Migration> = {
  '0001-platform': m0001,
  '0100-identity': m0100,
  '0101-identity-search': m0101,
  '0200-authorization': m0200,
  '0500-notifications': m0500,
  '0300-localization': m0300,
  '0301-help': m0301,
  '0302-help-seed': m0302,
  '0303-help-translations': m0303,
  '0400-dictionaries': m0400,
  '0401-document-numbers': m0401,
  '0600-pages': m0600,
  '0601-pages-casts': m0601,
  '0602-pages-default-actions': m0602,
  '0700-business-data': m0700,
  '0002-sign-in-security': m0002,
  '0800-files': m0800,
  '0003-jobs': m0003,
  '0900-workflow': m0900,
  '0901-workflow-engine': m0901,
  '0902-workflow-signers': m0902,
  '0903-workflow-task-lists': m0903,
  '0904-live-signals': m0904,
  '0905-api-keys': m0905,
  '0906-print-templates': m0906,
  '0907-data-sources': m0907,
  '0908-data-source-methods': m0908,
  '0909-data-source-mssql': m0909,
  '0910-data-source-http': m0910,
  '1000-data-factory': m1000,
  '1001-data-factory-external': m1001,
  '1002-data-factory-permissions': m1002,
  '1003-data-factory-schedules': m1003,
  '1004-own-data-source': m1004,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  // Modules add migrations in parallel under their own prefixes, so a data folder may have run a
  // later prefix before an earlier one appears.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
