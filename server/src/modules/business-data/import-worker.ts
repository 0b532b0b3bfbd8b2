/**
 * The import worker's thread (see import-thread.ts): takes a job — the caller's user, languages,
 * client and the application's configuration, the page and view, the file's bytes — builds a
 * service context on its own database connection, and runs the import as the request thread would.
 */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { TImportViewDataQuery, TImportViewDataResult } from '@tessera/core/contracts/business-data';
import type { AppConfig } from '../../config.ts';
import { openDatabase, type DatabaseHandle } from '../../db/database.ts';
import { AuthCache } from '../../platform/access.ts';
import type { RequestUser } from '../../platform/auth.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { cultureOfLanguage } from '../../platform/messages.ts';
import { importWorkbookHere } from './excel.service.ts';

export interface ImportJob {
  id: number;
  config: AppConfig;
  user: RequestUser | null;
  acceptLanguage: string;
  client: ServiceContext['client'];
  input: TImportViewDataQuery;
  bytes: Uint8Array;
}

export type ImportReply =
  | { id: number; log: 'error' | 'warn' | 'info' | 'debug'; args: unknown[] }
  | { id: number; result: TImportViewDataResult }
  | { id: number; appError: Pick<AppError, 'statusCode' | 'code' | 'messageKey' | 'options'>; error?: undefined }
  | { id: number; appError?: undefined; error: string };

// An import is batch work: on Linux, where a priority belongs to a thread, this thread yields the
// CPU to the request thread when both want it (elsewhere it would lower the whole process: left alone).
if (process.platform === 'linux') {
  try {
    setPriority(10);
  } catch {
    // Not allowed here (a sandbox): the import runs at the server's priority.
  }
}

let database: Promise<DatabaseHandle> | null = null;

/** A job's log lines go back to the request thread, which writes them to the request's log. */
function logOf(id: number): ServiceContext['log'] {
  const line = (log: 'error' | 'warn' | 'info' | 'debug') => (...args: unknown[]) => parentPort!.postMessage({ id, log, args } satisfies ImportReply);
  return { error: line('error'), warn: line('warn'), info: line('info'), debug: line('debug') } as ServiceContext['log'];
}

async function run(job: ImportJob): Promise<TImportViewDataResult> {
  database ??= openDatabase({ databaseUrl: job.config.databaseUrl, pgliteDataDir: job.config.pgliteDataDir, poolSize: 2 });
  const { db } = await database;
  const ctx: ServiceContext = {
    db,
    user: job.user,
    isSystem: false,
    acceptLanguage: job.acceptLanguage,
    culture: cultureOfLanguage(job.acceptLanguage),
    now: () => new Date(),
    client: job.client,
    caches: { auth: new AuthCache(db) },
    config: job.config,
    log: logOf(job.id),
  };
  return importWorkbookHere(ctx, job.input, Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength));
}

parentPort!.on('message', (message: ImportJob | { stop: true }) => {
  if ('stop' in message) {
    void (database ? database.then((d) => d.close()) : Promise.resolve()).finally(() => process.exit(0));
    return;
  }
  run(message).then(
    (result) => parentPort!.postMessage({ id: message.id, result } satisfies ImportReply),
    (err: unknown) => {
      const reply: ImportReply =
        err instanceof AppError
          ? { id: message.id, appError: { statusCode: err.statusCode, code: err.code, messageKey: err.messageKey, options: err.options } }
          : { id: message.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
      parentPort!.postMessage(reply);
    },
  );
});
