import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { signedIn } from '../src/platform/route-access.ts';
import { prepareServer } from '../src/server.ts';
import { TEST_ADMIN_PASSWORD } from './test-app.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'tessera-shutdown-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const baseConfig = (dataDir: string) => ({
  port: 0,
  host: '127.0.0.1',
  databaseUrl: undefined,
  dataDir,
  jwtSecret: new TextEncoder().encode('s'.repeat(40)),
  adminPassword: TEST_ADMIN_PASSWORD,
  logLevel: 'silent' as const,
  bodyLimit: 1024 * 1024,
  loginRateLimit: 100,
  captchaMaxCounter: 2000,
  webDist: undefined,
  pgliteDataDir: path.join(dataDir, 'db'),
  argon2: { memoryCost: 1024, timeCost: 1 },
  trustProxy: false,
  basePath: '',
});

describe('graceful shutdown on the embedded database', () => {
  it('stopping while a request is writing lets it finish and keeps its writes', async () => {
    const dataDir = await tempDir();
    let markWriting: () => void = () => {};
    const writing = new Promise<void>((resolve) => (markWriting = resolve));
    const server = await prepareServer(baseConfig(dataDir), {
      logger: false,
      extend: (app) => {
        app.post('/api/test/slow-write', {
          config: signedIn(),
          handler: async () => {
            await app.db.transaction().execute(async (trx) => {
              await sql`insert into settings (key, value) values ('slow:1', '1'::jsonb)`.execute(trx);
              markWriting();
              await new Promise((r) => setTimeout(r, 300));
              await sql`insert into settings (key, value) values ('slow:2', '2'::jsonb)`.execute(trx);
            });
            return { ok: true };
          },
        });
      },
    });
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const login = await fetch(`${address}/api/Auth/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD }),
    });
    const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    const pending = fetch(`${address}/api/test/slow-write`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    // Stop only once the request is inside its transaction, however slow the machine.
    await writing;
    await server.stop();
    expect((await pending).status).toBe(200);

    const reopened = await openDatabase({ pgliteDataDir: path.join(dataDir, 'db') });
    const keys = await reopened.db.selectFrom('settings').select('key').where('key', 'like', 'slow:%').orderBy('key').execute();
    await reopened.close();
    expect(keys.map((k) => k.key)).toEqual(['slow:1', 'slow:2']);
  });

  it('SIGTERM ends the process cleanly and a restart reuses the same data', async () => {
    const dataDir = await tempDir();
    const port = await new Promise<number>((resolve, reject) => {
      const probe = createServer().once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const start = () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
        cwd: ROOT,
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_PASSWORD: TEST_ADMIN_PASSWORD, LOG_LEVEL: 'warn', WEB_DIST: '/nonexistent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const ready = (async () => {
        for (let i = 0; i < 600; i++) {
          if (out.includes('Tessera is running')) return;
          if (child.exitCode !== null) throw new Error(out);
          await new Promise((r) => setTimeout(r, 250));
        }
        throw new Error(`no start: ${out}`);
      })();
      return { child, ready, output: () => out };
    };
    const first = start();
    await first.ready;
    expect(first.output()).toContain('Administrator account created');
    const login = await fetch(`http://127.0.0.1:${port}/api/Auth/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD }),
    });
    const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    first.child.kill('SIGTERM');
    const code = await new Promise((r) => first.child.once('exit', r));
    expect(code).toBe(0);

    const second = start();
    await second.ready;
    expect(second.output()).not.toContain('Administrator account created');
    // The session written before the shutdown survived it.
    const me = await fetch(`http://127.0.0.1:${port}/api/app/sys-function/current-user`, { headers: { authorization: `Bearer ${token}` } });
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
    expect(me.status).toBe(200);
    // Two full start-ups of a real process (migrations, argon2 seeding): generous on a busy machine.
  }, 180_000);
});
