import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A closed PGlite data dir holding every migration, to copy into a journey's data dir. */
    migratedDataDir: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, '..');
export const ADMIN_PASSWORD = 'E2e-Admin#2026';
/** Staff sit in China while the server keeps its own zone (UTC here): dates must survive the difference. */
export const BROWSER_TIME_ZONE = 'Asia/Shanghai';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Product {
  /** Where the product answers: `http://127.0.0.1:<port>` plus its base path, if any. */
  url: string;
  port: number;
  browser: Browser;
  newPage(options?: { width?: number; height?: number; locale?: string }): Promise<{ context: BrowserContext; page: Page }>;
  stop(): Promise<void>;
}

/** A port nothing listens on now (the machine runs other services on fixed ports). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface StartOptions {
  /** More server settings (`BASE_PATH`, `TRUST_PROXY`, …). */
  env?: Record<string, string>;
  /** More Chromium switches (`--host-resolver-rules=…`). */
  browserArgs?: string[];
}

/**
 * Starts the built product (web/dist must exist: `npm run test:e2e` builds it) with a fresh
 * embedded database, or a throwaway PostgreSQL database when E2E_DATABASE_URL is set.
 */
export async function startProduct(options: StartOptions = {}): Promise<Product> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-e2e-'));
  // The embedded database starts as a copy of the migrated one (e2e/global-setup.ts).
  await cp(inject('migratedDataDir'), path.join(dataDir, 'db'), { recursive: true });
  const port = await freePort();
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      LOGIN_RATE_LIMIT: '200',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout?.on('data', (d) => (output += d));
  server.stderr?.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}${options.env?.BASE_PATH ?? ''}`;
  // Chromium starts while the server does.
  const launching = chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync', ...(options.browserArgs ?? [])],
  });
  launching.catch(() => undefined); // its failure is met below, once the server is up
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      if (server.exitCode !== null) throw new Error(`server exited: ${output}`);
      try {
        if ((await fetch(`${url}/`)).ok) break;
      } catch {
        /* not up yet */
      }
      if (Date.now() > deadline) throw new Error(`server did not start: ${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    server.kill('SIGKILL');
    await launching.then((b) => b.close(), () => undefined);
    throw err;
  }
  const browser = await launching.catch((err: unknown) => {
    server.kill('SIGKILL');
    throw err;
  });
  return {
    url,
    port,
    browser,
    async newPage(options = {}) {
      const context = await browser.newContext({
        viewport: { width: options.width ?? 1366, height: options.height ?? 800 },
        locale: options.locale ?? 'zh-CN',
        timezoneId: BROWSER_TIME_ZONE,
      });
      const page = await context.newPage();
      return { context, page };
    },
    async stop() {
      await browser.close();
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in through the login form. */
export async function signInAs(page: Page, url: string, userName = 'admin', password = ADMIN_PASSWORD) {
  await page.goto(`${url}/#/login`);
  await page.getByPlaceholder('请输入账号或邮箱').or(page.getByPlaceholder('Enter your account or email')).fill(userName);
  await page.getByPlaceholder('请输入密码').or(page.getByPlaceholder('Enter your password')).fill(password);
  await page.keyboard.press('Enter');
}

export const screenshotPath = (name: string) => path.join(ROOT, 'e2e', 'screenshots', `${name}.png`);
