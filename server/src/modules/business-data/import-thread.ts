/**
 * Excel imports on PostgreSQL run in a worker thread of their own (issue 27 item 6): reading
 * 100,000 rows and validating each record through the save pipeline allocates millions of
 * short-lived objects, and on the request thread their garbage collection and the work itself
 * held every other request back (a simple GET's p99 at ~3× its idle value). The worker has its own
 * heap, collector and database connection, and writes the records in its own transaction; the
 * request thread only hands the file over and answers. On the embedded database (one connection,
 * living on the request thread) the import runs where the database is.
 *
 * One worker per application, started on the first import and stopped when the application closes.
 * Its heap is capped (`IMPORT_HEAP_MB`): a file whose import would need more ends that worker alone
 * with a 400 asking to import in parts — without the cap, running out of memory in a worker would
 * end the whole server.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { TImportViewDataQuery, TImportViewDataResult } from '@tessera/core/contracts/business-data';
import type { ServiceContext } from '../../platform/context.ts';
import { AppError, invalid } from '../../platform/errors.ts';
import { FILE_MEMBER } from '../../platform/excel-reader.ts';
import { cultureOf, translate } from '../../platform/messages.ts';
import type { ImportJob, ImportReply } from './import-worker.ts';

/** The worker's heap: 100,000 rows of a six-column page need under 400 MB. */
export const IMPORT_HEAP_MB = 1536;

export class ImportThread {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, { ctx: ServiceContext; resolve(result: TImportViewDataResult): void; reject(err: unknown): void }>();
  private nextId = 1;

  /** Runs the import of `bytes` for the caller of `ctx` in the worker. */
  run(ctx: ServiceContext, input: TImportViewDataQuery, bytes: Buffer): Promise<TImportViewDataResult> {
    const worker = this.started();
    const id = this.nextId++;
    const copy = new Uint8Array(bytes);
    const job: ImportJob = { id, config: ctx.config, user: ctx.user, acceptLanguage: ctx.acceptLanguage, client: ctx.client, input, bytes: copy };
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { ctx, resolve, reject });
      worker.postMessage(job, [copy.buffer]);
    });
  }

  /** Stops the worker (its database connections close first). */
  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    const exited = once(worker, 'exit');
    worker.postMessage({ stop: true });
    const timeout = new Promise((resolve) => setTimeout(resolve, 10_000).unref());
    if ((await Promise.race([exited.then(() => 'exited'), timeout])) !== 'exited') await worker.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    // The worker loads the module's TypeScript as the server does (tsx), also under a test runner.
    const execArgv = process.execArgv.some((a) => a.includes('tsx')) ? process.execArgv : [...process.execArgv, '--import', 'tsx'];
    const worker = new Worker(new URL('./import-worker.ts', import.meta.url), { execArgv, resourceLimits: { maxOldGenerationSizeMb: IMPORT_HEAP_MB } });
    worker.on('message', (reply: ImportReply) => {
      const job = this.waiting.get(reply.id);
      if (!job) return;
      // The worker's log lines go to the request's log (its request id included).
      if ('log' in reply) return void job.ctx.log[reply.log](...(reply.args as [object, string]));
      this.waiting.delete(reply.id);
      if ('result' in reply) job.resolve(reply.result);
      else if (reply.appError) job.reject(new AppError(reply.appError.statusCode, reply.appError.code, reply.appError.messageKey, reply.appError.options));
      else job.reject(new Error(reply.error));
    });
    const fail = (err: unknown) => {
      if (this.worker === worker) this.worker = null;
      const outOfMemory = (err as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
      for (const job of this.waiting.values()) {
        if (outOfMemory) job.reject(invalid(translate(cultureOf(job.ctx), 'error.importOutOfMemory', { max: IMPORT_HEAP_MB }), [FILE_MEMBER]));
        else job.reject(err instanceof Error ? err : new Error(`import worker stopped: ${String(err)}`));
      }
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`import worker exited (${code})`)));
    // An idle worker does not keep the process alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
