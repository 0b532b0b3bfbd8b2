import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../config.ts';
import { parseSecretKey } from '../config.ts';
import { openSecret, sealSecret } from './secrets.ts';

const config = (key = randomBytes(32)) => ({ jwtSecret: new Uint8Array(randomBytes(32)), secretKey: new Uint8Array(key) }) as unknown as AppConfig;

describe('sealed credentials', () => {
  it('open with the same key and row only, and differ every time they are sealed', () => {
    const c = config();
    const sealed = sealSecret(c, 'p@ss-秘密', 'row-1');
    expect(sealed).not.toContain('p@ss');
    expect(sealSecret(c, 'p@ss-秘密', 'row-1')).not.toBe(sealed);
    expect(openSecret(c, sealed, 'row-1')).toBe('p@ss-秘密');
    expect(() => openSecret(c, sealed, 'row-2')).toThrow();
    expect(() => openSecret(config(), sealed, 'row-1')).toThrow();
    const [v, nonce, tag, body] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => openSecret(c, [v, nonce, tag, flipped.toString('base64url')].join('.'), 'row-1')).toThrow();
  });

  it('take SECRET_KEY as 64 hex digits or base64 of 32 bytes, nothing else', () => {
    const key = randomBytes(32);
    expect(Buffer.from(parseSecretKey(key.toString('hex')))).toEqual(key);
    expect(Buffer.from(parseSecretKey(key.toString('base64')))).toEqual(key);
    expect(() => parseSecretKey('short')).toThrow(/32 bytes/);
  });
});
