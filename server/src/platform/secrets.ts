/*
 * Sealing stored credentials (a data source's password): AES-256-GCM with the installation's key
 * (config.secretKey — SECRET_KEY, or the data dir's `secret-key`), a fresh 96-bit nonce per seal,
 * and the owning row's id as associated data, so a sealed value copied onto another row does not
 * open. Sealed form: `v1.<nonce>.<tag>.<ciphertext>` (base64url). Plain text never reaches the
 * database, a log or an API answer.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { AppConfig } from '../config.ts';

const keys = new WeakMap<AppConfig, Buffer>();

function keyOf(config: AppConfig): Buffer {
  let key = keys.get(config);
  if (!key) {
    key = config.secretKey ? Buffer.from(config.secretKey) : Buffer.from(hkdfSync('sha256', config.jwtSecret, 'tessera', 'sealed credentials', 32));
    keys.set(config, key);
  }
  return key;
}

export function sealSecret(config: AppConfig, plain: string, boundTo: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(config), nonce);
  cipher.setAAD(Buffer.from(boundTo, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The plain text of a sealed value; throws when the key or the row differ (or it was tampered with). */
export function openSecret(config: AppConfig, sealed: string, boundTo: string): string {
  const [version, nonce, tag, body] = sealed.split('.');
  if (version !== 'v1' || nonce === undefined || tag === undefined || body === undefined) throw new Error('Not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(config), Buffer.from(nonce, 'base64url'));
  decipher.setAAD(Buffer.from(boundTo, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
