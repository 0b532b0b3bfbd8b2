import { createHmac, randomInt } from 'node:crypto';
import { createChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Kysely } from 'kysely';
import { ZCaptchaPayload, type TCaptcha } from '@tessera/core/contracts/auth';
import type { Database } from '../../db/schema.ts';
import * as repo from './auth.repository.ts';

/** Issue 25: a challenge lives 2 minutes. */
export const CAPTCHA_TTL_SECONDS = 120;
export const CAPTCHA_ALGORITHM = 'SHA-256';

export interface CaptchaOptions {
  /** Signs challenges, so nothing is stored when one is issued (any node can verify it). */
  secret: Uint8Array;
  /** The largest counter a challenge may hide: the work is about half of it on average. */
  maxCounter: number;
}

// One key per purpose, derived from the node-shared secret.
const subKey = (secret: Uint8Array, purpose: string) => createHmac('sha256', secret).update(`tessera:altcha:${purpose}`).digest('hex');

/**
 * A self-hosted ALTCHA proof-of-work challenge (v2, deterministic): the server picks a random
 * counter, keeps half of SHA-256(salt ‖ nonce ‖ counter) as the prefix to find, and signs the
 * parameters. Guessing is hopeless (the counter is one of up to 2^32, checked by a 128-bit
 * prefix); solving costs the browser about maxCounter / 2 hashes.
 */
export async function issueCaptcha(options: CaptchaOptions): Promise<TCaptcha> {
  const challenge = await createChallenge({
    algorithm: CAPTCHA_ALGORITHM,
    cost: 1,
    counter: randomInt(Math.floor(options.maxCounter / 10), options.maxCounter + 1),
    deriveKey,
    expiresAt: new Date(Date.now() + CAPTCHA_TTL_SECONDS * 1000),
    hmacSignatureSecret: subKey(options.secret, 'signature'),
    hmacKeySignatureSecret: subKey(options.secret, 'key'),
  });
  return challenge as TCaptcha;
}

/**
 * True only for a solved, unexpired challenge of ours seen for the first time. Single use with
 * one attempt: a genuine challenge is spent by its first submission, right or wrong.
 */
export async function consumeCaptcha(db: Kysely<Database>, options: CaptchaOptions, captcha: string): Promise<boolean> {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(captcha, 'base64').toString('utf8'));
  } catch {
    return false;
  }
  const payload = ZCaptchaPayload.safeParse(decoded);
  if (!payload.success || payload.data.challenge.parameters.algorithm !== CAPTCHA_ALGORITHM) return false;
  const { challenge, solution } = payload.data;
  const result = await verifySolution({
    challenge,
    solution,
    deriveKey,
    hmacSignatureSecret: subKey(options.secret, 'signature'),
    hmacKeySignatureSecret: subKey(options.secret, 'key'),
  });
  // Unsigned, forged or expired: nothing of ours to spend.
  if (result.expired || result.invalidSignature !== false || !challenge.parameters.expiresAt) return false;
  const now = new Date();
  await repo.deleteExpiredCaptchaUses(db, now);
  const spent = await repo.spendCaptcha(db, challenge.parameters.nonce, new Date(challenge.parameters.expiresAt * 1000));
  return spent && result.verified === true;
}
