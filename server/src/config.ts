import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/** Registration's proof of work: about 100 000 SHA-256 hashes on average (under a second). */
export const DEFAULT_CAPTCHA_MAX_COUNTER = 200_000;

const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  JWT_SECRET: z.string().min(32).optional(),
  /** The key that seals stored credentials (data sources): 32 bytes as base64 or 64 hex digits; kept in the data dir when unset. */
  SECRET_KEY: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT: z.coerce.number().int().positive().default(1024 * 1024),
  WEB_DIST: z.string().optional(),
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(20),
  API_KEY_RATE_LIMIT: z.coerce.number().int().positive().default(600),
  CAPTCHA_MAX_COUNTER: z.coerce.number().int().min(1000).max(0xffffffff).default(DEFAULT_CAPTCHA_MAX_COUNTER),
  TRUST_PROXY: z.string().default(''),
  BASE_PATH: z.string().default(''),
  TLS_CERT: z.string().optional(),
  TLS_KEY: z.string().optional(),
  HTTP2: z.enum(['', 'true', 'false', '1', '0']).default(''),
  FILE_MAX_BYTES: z.coerce.number().int().positive().default(20 * 1024 * 1024),
  IMAGE_MAX_BYTES: z.coerce.number().int().positive().default(10 * 1024 * 1024),
  JOB_POLL_MS: z.coerce.number().int().min(0).max(3_600_000).default(1000),
});

/**
 * Whose forwarded headers (`X-Forwarded-For`, `-Proto`, `-Host`) to believe, in Fastify's
 * `trustProxy` terms. Off by default: a client could otherwise forge its address and defeat the
 * sign-in rate limit and the audit log.
 */
export type TrustProxy = boolean | number | string[];

export function parseTrustProxy(value: string): TrustProxy {
  const text = value.trim();
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  return text.split(',').map((s) => s.trim()).filter(Boolean);
}

/** `/erp/` → `/erp`; empty or `/` → `` (served at the root). */
export function parseBasePath(value: string): string {
  const text = value.trim().replace(/\/+$/, '');
  if (text === '') return '';
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(text) || text.split('/').some((segment) => /^\.+$/.test(segment))) {
    throw new Error(`BASE_PATH must look like /erp or /apps/erp (letters, digits, . _ ~ -), got "${value}"`);
  }
  return text;
}

export interface AppConfig {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  jwtSecret: Uint8Array;
  /**
   * The 32-byte key stored credentials are sealed with (platform/secrets.ts). Every node of one
   * installation needs the same (SECRET_KEY); absent in hand-built configs, where it is derived from
   * the JWT secret.
   */
  secretKey?: Uint8Array;
  adminPassword?: string;
  logLevel: z.infer<typeof ZEnv>['LOG_LEVEL'];
  bodyLimit: number;
  /** Sign-in attempts per minute for one address and user name. */
  loginRateLimit: number;
  /** Requests per minute one personal API key may make (per server process; default 600). */
  apiKeyRateLimit?: number;
  /** The registration captcha's work: the largest counter a challenge hides (tests lower it). */
  captchaMaxCounter: number;
  /** Built web app to serve; absent in API-only tests. */
  webDist?: string;
  /** Embedded database location (`memory://` in tests). */
  pgliteDataDir: string;
  /** Password hashing cost; tests lower it so suites stay fast, production keeps OWASP's. */
  argon2: { memoryCost: number; timeCost: number };
  /** Proxies whose forwarded headers are believed (off by default). */
  trustProxy: TrustProxy;
  /** The sub-path a proxy serves the product under (`/erp`), or `` at the root. */
  basePath: string;
  /** Certificate and key (PEM) to serve HTTPS directly; HTTP/2 when `http2` is on. */
  tls?: { cert: Buffer; key: Buffer; http2: boolean };
  /** Largest upload of an attachment / image control in bytes (default 20 MB / 10 MB; module files). */
  files?: { maxBytes: number; imageMaxBytes: number };
  /** How often the job worker looks for due jobs (platform/jobs.ts); 0 runs no worker (API tests drive it). */
  jobPollMs?: number;
}

export const ARGON2_PRODUCTION = { memoryCost: 19456, timeCost: 2 };

/** Reads the environment; the JWT secret is generated once and kept in the data dir when unset. */
export async function loadConfig(env: NodeJS.ProcessEnv = process.env): Promise<AppConfig> {
  const parsed = ZEnv.parse(env);
  const dataDir = path.resolve(parsed.DATA_DIR);
  await mkdir(dataDir, { recursive: true });
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    databaseUrl: parsed.DATABASE_URL || undefined,
    dataDir,
    jwtSecret: new TextEncoder().encode(parsed.JWT_SECRET ?? (await keptSecret(dataDir))),
    secretKey: parsed.SECRET_KEY ? parseSecretKey(parsed.SECRET_KEY) : await keptSecretKey(dataDir),
    adminPassword: parsed.ADMIN_PASSWORD,
    logLevel: parsed.LOG_LEVEL,
    bodyLimit: parsed.BODY_LIMIT,
    loginRateLimit: parsed.LOGIN_RATE_LIMIT,
    apiKeyRateLimit: parsed.API_KEY_RATE_LIMIT,
    captchaMaxCounter: parsed.CAPTCHA_MAX_COUNTER,
    webDist: parsed.WEB_DIST ?? path.resolve(import.meta.dirname, '../../web/dist'),
    pgliteDataDir: path.join(dataDir, 'db'),
    argon2: ARGON2_PRODUCTION,
    trustProxy: parseTrustProxy(parsed.TRUST_PROXY),
    basePath: parseBasePath(parsed.BASE_PATH),
    tls: await loadTls(parsed),
    files: { maxBytes: parsed.FILE_MAX_BYTES, imageMaxBytes: parsed.IMAGE_MAX_BYTES },
    jobPollMs: parsed.JOB_POLL_MS,
  };
}

async function loadTls(env: z.infer<typeof ZEnv>): Promise<AppConfig['tls']> {
  const http2 = env.HTTP2 === 'true' || env.HTTP2 === '1';
  if (!env.TLS_CERT && !env.TLS_KEY) {
    if (http2) throw new Error('HTTP2 needs TLS_CERT and TLS_KEY');
    return undefined;
  }
  if (!env.TLS_CERT || !env.TLS_KEY) throw new Error('TLS_CERT and TLS_KEY go together');
  return { cert: await readFile(env.TLS_CERT), key: await readFile(env.TLS_KEY), http2 };
}

/** SECRET_KEY: 32 bytes written as 64 hex digits or base64. */
export function parseSecretKey(value: string): Uint8Array {
  const text = value.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('SECRET_KEY must be 32 bytes: 64 hex digits or 44 base64 characters');
  return new Uint8Array(key);
}

/** The credentials key of this installation, made once and kept in the data dir (readable by its owner only). */
async function keptSecretKey(dataDir: string): Promise<Uint8Array> {
  const file = path.join(dataDir, 'secret-key');
  try {
    return parseSecretKey(await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const key = randomBytes(32);
    await writeFile(file, key.toString('base64'), { mode: 0o600, flag: 'wx' }).catch(async (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EEXIST') throw e;
    });
    return parseSecretKey(await readFile(file, 'utf8'));
  }
}

async function keptSecret(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const secret = randomBytes(48).toString('base64url');
    await writeFile(file, secret, { mode: 0o600 });
    return secret;
  }
}
