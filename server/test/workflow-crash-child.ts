/**
 * One server process of the workflow crash run (test/workflow-crash-run.ts): the real Tessera server
 * (migrations, seed, every module) on the run's database — `CRASH_PGLITE_DIR` (the embedded
 * database's folder, reopened after each kill as the next start would) or `CRASH_DATABASE_URL` —
 * listening on a free port, printing `READY <url>`. The parent kills it with SIGKILL at random
 * points and starts another on the same data. `CRASH_JWT_SECRET` is fixed for the run, so the
 * users' tokens outlive the processes.
 *
 * Its job worker does not poll: `POST /api/crash-test/run-jobs { offsetMinutes }` runs the jobs due
 * at "now + offsetMinutes" (the approval timers' reminders and timeouts), so the script decides when
 * timers fire and a kill can land in the middle of one.
 */
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { JobWorker } from '../src/platform/jobs.ts';
import { publicRoute } from '../src/platform/route-access.ts';
import { prepareServer } from '../src/server.ts';

const ZRunJobs = z.object({ offsetMinutes: z.number().int().min(0).max(10_000_000) });
const env = z
  .object({
    CRASH_PGLITE_DIR: z.string().min(1).optional(),
    CRASH_DATABASE_URL: z.string().min(1).optional(),
    CRASH_JWT_SECRET: z.string().min(32),
    CRASH_ADMIN_PASSWORD: z.string().min(8),
  })
  .parse(process.env);

// A spare process (CRASH_SPARE=1) loads the code ahead, then waits for "go" on stdin before it
// touches the database: the parent starts one while the previous server still runs, so a restart
// after a kill costs the database's opening and recovery, not the loading of Node modules.
if (process.env.CRASH_SPARE === '1') {
  process.stdout.write('LOADED\n');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
}

const server = await prepareServer(
  {
    port: 0,
    host: '127.0.0.1',
    databaseUrl: env.CRASH_DATABASE_URL,
    dataDir: '/tmp',
    jwtSecret: new TextEncoder().encode(env.CRASH_JWT_SECRET),
    adminPassword: env.CRASH_ADMIN_PASSWORD,
    logLevel: 'silent',
    bodyLimit: 1024 * 1024,
    loginRateLimit: 1_000_000,
    captchaMaxCounter: 2000,
    webDist: undefined,
    pgliteDataDir: env.CRASH_PGLITE_DIR ?? 'memory://',
    argon2: { memoryCost: 1024, timeCost: 1 },
    trustProxy: false,
    basePath: '',
  },
  {
    logger: false,
    extend: (app) => {
      app.withTypeProvider<ZodTypeProvider>().post('/api/crash-test/run-jobs', { config: publicRoute(), schema: { body: ZRunJobs } }, async (req) => {
        const { offsetMinutes } = req.body;
        const at = () => new Date(Date.now() + offsetMinutes * 60_000);
        return { ran: await new JobWorker(app, { pollMs: 0, batch: 1000, now: at }).runDue() };
      });
    },
  },
);
const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`READY ${url}\n`);
process.once('SIGTERM', () => void server.stop().finally(() => process.exit(0)));
