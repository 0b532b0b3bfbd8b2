import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TCaptcha } from '@tessera/core/contracts/auth';
import { up as migrateSignInSecurity } from '../src/db/migrations/0002-sign-in-security.ts';
import { unlockUserByName } from '../src/db/unlock-user.ts';
import { createUser, FIXTURE_PASSWORD } from './access-fixtures.ts';
import { enableRegistration, register, solve, solvedCaptcha } from './registration-helpers.ts';
import { createTestApp, TEST_ADMIN_PASSWORD, type TestApp } from './test-app.ts';

// Issue 25 items 4–7: captcha, registration default, lockout, bearer scheme, malformed URLs.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const signIn = async (username: string, password: string) =>
  (await t.app.inject({ method: 'POST', url: '/api/Auth/Login', payload: { username, password } })).json() as { code: number; message: string };
const me = (token: string, scheme = 'Bearer') =>
  t.app.inject({ method: 'GET', url: '/api/app/sys-function/current-user', headers: { authorization: `${scheme} ${token}` } });
const postRegister = async (mail: string, captcha: string) =>
  t.app.inject({ method: 'POST', url: '/api/register', payload: { mail, password: 'Passw0rd!', mobile: '13800000000', captcha } });
const challenge = async () => (await t.app.inject({ method: 'GET', url: '/api/register/captcha' })).json() as TCaptcha;
const userRow = (userName: string) => t.database.db.selectFrom('users').selectAll().where('user_name', '=', userName).executeTakeFirstOrThrow();

describe('registration is off on a new installation', () => {
  it('says so publicly and refuses a registration with a solved challenge', async () => {
    const options = await t.app.inject({ method: 'GET', url: '/api/register/options' });
    expect(options.statusCode).toBe(200);
    expect(options.json()).toEqual({ isEnabled: false, passwordPolicy: { minLength: 8, requiredClasses: 3 } });
    const res = await postRegister('early@example.com', await solvedCaptcha(t));
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('RegistrationDisabled');
    expect(await t.database.db.selectFrom('settings').select('key').where('key', '=', 'registration.enabled').executeTakeFirst()).toBeUndefined();
  });

  it('an existing installation keeps what it had (migration 0002): on when unset, an explicit choice stays', async () => {
    const setting = () => t.database.db.selectFrom('settings').select('value').where('key', '=', 'registration.enabled').executeTakeFirst();
    await t.database.db.updateTable('users').set({ lockout_enabled: false }).where('user_name', '=', 'admin').execute();
    await migrateSignInSecurity(t.database.db);
    expect((await setting())?.value).toBe(true);
    expect((await userRow('admin')).lockout_enabled).toBe(true);
    await enableRegistration(t, false);
    await migrateSignInSecurity(t.database.db);
    expect((await setting())?.value).toBe(false);
  });
});

describe('registration captcha: a signed proof-of-work challenge', () => {
  beforeAll(() => enableRegistration(t));

  it('is an ALTCHA SHA-256 challenge that expires in 2 minutes', async () => {
    const c = await challenge();
    expect(c.parameters.algorithm).toBe('SHA-256');
    expect(c.signature).toMatch(/^[0-9a-f]{64}$/);
    // 16 bytes of the derived key to match: no answer to guess.
    expect(c.parameters.keyPrefix).toMatch(/^[0-9a-f]{32}$/);
    const ttl = c.parameters.expiresAt! - Date.now() / 1000;
    expect(ttl).toBeGreaterThan(110);
    expect(ttl).toBeLessThanOrEqual(120);
  });

  it('a solved challenge registers once; its replay is refused', async () => {
    const captcha = await solvedCaptcha(t);
    expect((await postRegister('solver@example.com', captcha)).statusCode).toBe(200);
    const replay = await postRegister('replay@example.com', captcha);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.validationErrors[0].members).toEqual(['captcha']);
  });

  it('one attempt per challenge: a wrong answer spends it, so the right one afterwards fails', async () => {
    const c = await challenge();
    const right = await solve(c);
    const solution = JSON.parse(Buffer.from(right, 'base64').toString()).solution;
    const guess = Buffer.from(JSON.stringify({ challenge: c, solution: { counter: 0, derivedKey: '00'.repeat(32) } })).toString('base64');
    expect((await postRegister('guess@example.com', guess)).statusCode).toBe(400);
    expect((await postRegister('guess@example.com', right)).statusCode).toBe(400);
    expect(solution.counter).toBeGreaterThan(0);
    expect(await t.database.db.selectFrom('users').select('id').where('user_name', '=', 'guess@example.com').executeTakeFirst()).toBeUndefined();
  });

  it('refuses a challenge it did not sign (an easier prefix) and an expired one', async () => {
    const c = await challenge();
    const easier = { ...c, parameters: { ...c.parameters, keyPrefix: '0', keySignature: undefined } };
    expect((await postRegister('forger@example.com', await solve(easier))).statusCode).toBe(400);
    const late = await solvedCaptcha(t);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 121_000);
      expect((await postRegister('late@example.com', late)).statusCode).toBe(400);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a garbled captcha is a 400 on the captcha field, never a 500', async () => {
    for (const captcha of ['not base64 !', Buffer.from('[1,2]').toString('base64'), Buffer.from('{"challenge":{}}').toString('base64')]) {
      const res = await postRegister('garbled@example.com', captcha);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.validationErrors[0].members).toEqual(['captcha']);
    }
  });
});

describe('automatic lockout', () => {
  it('an existing user and an unknown name get the same answers, also past 5 failures', async () => {
    await createUser(t.database.db, 'colleague');
    for (let i = 0; i < 7; i++) {
      const known = await signIn('colleague', 'wrong');
      const unknown = await signIn('nobody-here', 'wrong');
      expect(known).toEqual(unknown);
      expect(known.code).toBe(1001);
    }
  });

  it('while locked, the right password gets the wrong-password answer and is not checked', async () => {
    const row = await userRow('colleague');
    expect(row.sign_in_lockout_end!.getTime()).toBeGreaterThan(Date.now() + 4 * 60_000);
    expect(row.lockout_end).toBeNull();
    const answer = await signIn('colleague', FIXTURE_PASSWORD);
    expect(answer).toEqual(await signIn('nobody-here', FIXTURE_PASSWORD));
    expect((await userRow('colleague')).access_failed_count).toBe(row.access_failed_count);
    const audit = await t.database.db.selectFrom('audit_logs').select('details').where('action', '=', 'LoginFailed').where('user_name', '=', 'colleague').orderBy('time', 'desc').executeTakeFirstOrThrow();
    expect(audit.details).toEqual({ reason: 'locked out' });
  });

  it("does not end the user's live sessions (no one can sign a colleague out)", async () => {
    await createUser(t.database.db, 'victim');
    const token = await t.login('victim', FIXTURE_PASSWORD);
    for (let i = 0; i < 6; i++) await signIn('victim', 'wrong');
    expect((await userRow('victim')).sign_in_lockout_end).not.toBeNull();
    expect((await me(token)).statusCode).toBe(200);
  });

  it('runs out after its time, and an administrator unlock lifts it at once', async () => {
    await t.database.db.updateTable('users').set({ sign_in_lockout_end: new Date(Date.now() - 1000) }).where('user_name', '=', 'victim').execute();
    expect((await signIn('victim', FIXTURE_PASSWORD)).code).toBe(0);
    expect(await userRow('victim')).toMatchObject({ access_failed_count: 0, sign_in_lockout_end: null });
    // A lapsed lockout counts afresh: one more wrong password does not lock again.
    for (let i = 0; i < 5; i++) await signIn('victim', 'wrong');
    await t.database.db.updateTable('users').set({ sign_in_lockout_end: new Date(Date.now() - 1000) }).where('user_name', '=', 'victim').execute();
    await signIn('victim', 'wrong');
    expect(await userRow('victim')).toMatchObject({ access_failed_count: 1, sign_in_lockout_end: null });
    for (let i = 0; i < 4; i++) await signIn('victim', 'wrong');
    expect((await signIn('victim', FIXTURE_PASSWORD)).code).toBe(1001);
    const admin = await t.login();
    const id = (await userRow('victim')).id;
    expect((await t.call(admin, { method: 'POST', url: `/api/identity/users/${id}/unlock` })).statusCode).toBe(200);
    expect((await signIn('victim', FIXTURE_PASSWORD)).code).toBe(0);
  });

  it("an administrator's lock ends sessions and is named only after the right password", async () => {
    await createUser(t.database.db, 'suspended');
    const token = await t.login('suspended', FIXTURE_PASSWORD);
    const admin = await t.login();
    const id = (await userRow('suspended')).id;
    expect((await t.call(admin, { method: 'POST', url: `/api/identity/users/${id}/lock`, payload: { minutes: 30 } })).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(401);
    expect((await signIn('suspended', 'wrong')).code).toBe(1001);
    const right = await signIn('suspended', FIXTURE_PASSWORD);
    expect(right.code).toBe(1002);
    expect(right.message).toContain('管理员');
  });

  it('a disabled account is named as disabled only after the right password', async () => {
    await createUser(t.database.db, 'retired');
    await t.database.db.updateTable('users').set({ is_active: false }).where('user_name', '=', 'retired').execute();
    expect(await signIn('retired', 'wrong')).toEqual(await signIn('nobody-here', 'wrong'));
    const right = await signIn('retired', FIXTURE_PASSWORD);
    expect(right.code).toBe(1003);
    expect(right.message).toBe('账号已停用，请联系管理员');
  });

  it('applies to the seeded admin too; the recovery command lifts it', async () => {
    const admin = await t.login();
    for (let i = 0; i < 5; i++) await signIn('admin', 'wrong');
    expect((await signIn('admin', TEST_ADMIN_PASSWORD)).code).toBe(1001);
    // Admin's own session goes on.
    expect((await me(admin)).statusCode).toBe(200);
    expect(await unlockUserByName(t.database.db, 'ADMIN')).toEqual({ user_name: 'admin', is_active: true });
    expect((await signIn('admin', TEST_ADMIN_PASSWORD)).code).toBe(0);
    expect(await unlockUserByName(t.database.db, 'ghost')).toBeUndefined();
  });
});

describe('request edges', () => {
  it('the Authorization scheme is case-insensitive (RFC 9110)', async () => {
    const token = await t.login();
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) expect((await me(token, scheme)).statusCode).toBe(200);
    expect((await me(token, 'Basic')).statusCode).toBe(401);
  });

  it("a malformed URL answers the product's error shape", async () => {
    for (const url of ['/%c0%ae%c0%ae/x', '/api/%c0%ae%c0%ae/x']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-language': 'en-US' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: { code: 'BadUrl', message: 'The request address is malformed', details: null, validationErrors: null } });
    }
  });

  it('registration after it is turned on, with the default password policy', async () => {
    const body = await register(t, 'late.joiner@example.com');
    expect(body.code).toBe(0);
    expect(body.data.isAdmin).toBe(false);
  });
});
