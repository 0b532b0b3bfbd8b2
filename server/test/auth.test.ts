import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableRegistration, solvedCaptcha } from './registration-helpers.ts';
import { createTestApp, TEST_ADMIN_PASSWORD, type TestApp } from './test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await enableRegistration(t);
});
afterAll(() => t.close());

describe('sign-in', () => {
  it('signs the admin in with the spec response shape', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/Auth/Login', payload: { username: 'admin', password: TEST_ADMIN_PASSWORD } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.code).toBe(0);
    expect(body.data.isAdmin).toBe(true);
    expect(body.data.user.userName).toBe('admin');
    expect(body.data.user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.data.accessToken.split('.')).toHaveLength(3);
  });

  it('answers the same non-zero code for a wrong password and an unknown user', async () => {
    const wrong = (await t.app.inject({ method: 'POST', url: '/api/Auth/Login', payload: { username: 'admin', password: 'nope' } })).json();
    const unknown = (await t.app.inject({ method: 'POST', url: '/api/Auth/Login', payload: { username: 'ghost', password: 'nope' } })).json();
    expect(wrong.code).not.toBe(0);
    expect(wrong.code).toBe(unknown.code);
    expect(wrong.message).toBe(unknown.message);
    expect(wrong.message).toBe('用户名或密码错误');
    const en = await t.app.inject({
      method: 'POST',
      url: '/api/Auth/Login',
      headers: { 'accept-language': 'en-US' },
      payload: { username: 'ghost', password: 'nope' },
    });
    expect(en.json().message).toBe('Wrong user name or password');
  });

  it('audits sign-in success and failure', async () => {
    const rows = await t.database.db.selectFrom('audit_logs').select(['action', 'user_name']).execute();
    expect(rows.some((r) => r.action === 'LoginSucceeded' && r.user_name === 'admin')).toBe(true);
    expect(rows.some((r) => r.action === 'LoginFailed' && r.user_name === 'ghost')).toBe(true);
  });

  it('returns the current user with their access list', async () => {
    const token = await t.login();
    const res = await t.call(token, { method: 'GET', url: '/api/app/sys-function/current-user' });
    expect(res.statusCode).toBe(200);
    const me = res.json();
    expect(me).toMatchObject({ userName: 'admin', isAdmin: true, organizationUnitName: '总部' });
    expect(Array.isArray(me.access)).toBe(true);
  });

  it('serves the server date as ISO 8601', async () => {
    const token = await t.login();
    const res = await t.call(token, { method: 'GET', url: '/api/app/sys-function/system-date' });
    expect(Math.abs(new Date(res.json().date).getTime() - Date.now())).toBeLessThan(60_000);
  });
});

describe('register, change password, logout', () => {
  it('registers with a solved challenge, signs in at once, and the challenge is single use', async () => {
    const payload = { mail: 'new.user@example.com', password: 'Passw0rd!', mobile: '13800000000', captcha: await solvedCaptcha(t) };
    const res = await t.app.inject({ method: 'POST', url: '/api/register', payload });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.code).toBe(0);
    expect(body.data.isAdmin).toBe(false);
    const me = await t.call(body.data.token, { method: 'GET', url: '/api/app/sys-function/current-user' });
    expect(me.json().userName).toBe('new.user@example.com');
    const again = await t.app.inject({ method: 'POST', url: '/api/register', payload: { ...payload, mail: 'other@example.com' } });
    expect(again.statusCode).toBe(400);
    expect(await t.database.db.selectFrom('users').select('id').where('user_name', '=', 'other@example.com').executeTakeFirst()).toBeUndefined();
  });

  it('refuses a wrong captcha and a weak password without writing', async () => {
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { mail: 'a@example.com', password: 'Passw0rd!', mobile: '13800000000', captcha: Buffer.from('{"x":1}').toString('base64') },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.validationErrors[0].members).toEqual(['captcha']);
    const weak = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { mail: 'a@example.com', password: 'short', mobile: '13800000000', captcha: await solvedCaptcha(t) },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.validationErrors[0].members).toEqual(['password']);
    expect(await t.database.db.selectFrom('users').select('id').where('user_name', '=', 'a@example.com').executeTakeFirst()).toBeUndefined();
  });

  it('refuses registration when it is turned off', async () => {
    await enableRegistration(t, false);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { mail: 'b@example.com', password: 'Passw0rd!', mobile: '13800000000', captcha: await solvedCaptcha(t) },
    });
    expect(res.statusCode).toBe(403);
    await enableRegistration(t);
  });

  it('changes the password: old one stops working, other sessions are revoked', async () => {
    const mine = await t.login('new.user@example.com', 'Passw0rd!');
    const other = await t.login('new.user@example.com', 'Passw0rd!');
    const wrong = await t.call(mine, {
      method: 'POST',
      url: '/api/account/my-profile/change-password',
      payload: { currentPassword: 'bad', newPassword: 'N3w-Passw0rd' },
    });
    expect(wrong.statusCode).toBe(400);
    const res = await t.call(mine, {
      method: 'POST',
      url: '/api/account/my-profile/change-password',
      payload: { currentPassword: 'Passw0rd!', newPassword: 'N3w-Passw0rd' },
    });
    expect(res.statusCode).toBe(200);
    await expect(t.login('new.user@example.com', 'Passw0rd!')).rejects.toThrow();
    await t.login('new.user@example.com', 'N3w-Passw0rd');
    expect((await t.call(other, { method: 'GET', url: '/api/app/sys-function/current-user' })).statusCode).toBe(401);
    expect((await t.call(mine, { method: 'GET', url: '/api/app/sys-function/current-user' })).statusCode).toBe(200);
  });

  it('logout revokes the session at once', async () => {
    const token = await t.login();
    expect((await t.call(token, { method: 'POST', url: '/api/Auth/Logout' })).statusCode).toBe(204);
    expect((await t.call(token, { method: 'GET', url: '/api/app/sys-function/current-user' })).statusCode).toBe(401);
  });
});
