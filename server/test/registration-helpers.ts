import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { TCaptcha } from '@tessera/core/contracts/auth';
import { writeSetting } from '../src/platform/settings.ts';
import type { TestApp } from './test-app.ts';

/** Fetches a registration challenge and solves it as the browser does; returns `captcha` for POST /api/register. */
export async function solvedCaptcha(t: TestApp): Promise<string> {
  const challenge = (await t.app.inject({ method: 'GET', url: '/api/register/captcha' })).json() as TCaptcha;
  return solve(challenge);
}

export async function solve(challenge: TCaptcha): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('captcha not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** Registration is off on a new installation; tests that register turn it on. */
export const enableRegistration = (t: TestApp, isEnabled = true) => writeSetting(t.database.db, 'registration.enabled', isEnabled);

/** Registers and returns the answer's body (`data.token`, `data.uuid`). */
export async function register(t: TestApp, mail: string, password = 'Passw0rd!') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/register',
    payload: { mail, password, mobile: '13800000000', captcha: await solvedCaptcha(t) },
  });
  if (res.statusCode !== 200) throw new Error(`register ${mail}: ${res.statusCode} ${res.body}`);
  return res.json() as { code: number; data: { token: string; uuid: string; isAdmin: boolean } };
}
