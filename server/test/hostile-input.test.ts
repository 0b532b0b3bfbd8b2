import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TPageDefinition, TView } from '@tessera/core/page-definition';
import { MAX_FILTER_OPERANDS } from '@tessera/core/filters/index';
import { MAX_PAGE_CONTROLS, MAX_VIEW_DEPTH } from '@tessera/core/page-definition';
import { createTestApp, type TestApp } from './test-app.ts';
import { control, pagesApi, URL as PAGES, view } from './page-helpers.ts';
import { BD, bd, publishPage } from './business-data-fixtures.ts';
import { uploadWorkbook, workbookOf } from './workbook-upload.ts';
import { createRole } from './identity-helpers.ts';

// Issue 27: hostile input is a 400 naming the field, never a 500. NUL and lone surrogates (which
// PostgreSQL refuses), too many bound operands in one query, and designs nested too deeply.

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';
const LOW = '\udc00z';

let t: TestApp;
let admin: string;
let pageId: string;
let viewId: string;
let roleId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const v = view('Hostile', [control('Name', 1001), control('Qty', 1002), control('Tags', 1008)]);
  viewId = v.id;
  pageId = await publishPage(t, admin, 'Hostile', { viewControls: [v], pageButtons: [], dataLinkages: [] });
  roleId = (await createRole(t, admin, { name: 'hostile-role' })).id;
}, 120_000);
afterAll(() => t.close());

/** A 400 in the product's error shape whose validation errors name `member` (a suffix match). */
function expectRefused(res: LightMyRequestResponse, member?: RegExp) {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json();
  expect(body.error.code).toBe('ValidationError');
  const members: string[] = (body.error.validationErrors ?? []).flatMap((v: { members: string[] }) => v.members);
  expect(members.length, res.body).toBeGreaterThan(0);
  if (member) expect(members.some((m) => member.test(m)), `${members.join(', ')} ~ ${member}`).toBe(true);
}

const q = (s: string) => encodeURIComponent(s);

describe('NUL and lone surrogates', () => {
  it.each([NUL, LONE, LOW])('sign-in with %j answers 400 without a token', async (bad) => {
    const res = await t.call(null, { method: 'POST', url: '/api/Auth/Login', payload: { username: bad, password: 'x' } });
    expectRefused(res, /username$/);
    expect(res.body).not.toContain('accessToken');
    const pw = await t.call(null, { method: 'POST', url: '/api/Auth/Login', payload: { username: 'admin', password: bad } });
    expectRefused(pw, /password$/);
  });

  it.each([
    '/api/identity/organization-units',
    '/api/identity/roles',
    '/api/identity/users',
    '/api/app/business-dictionary',
    '/api/app/document-number',
    '/api/app/business-menu',
    '/api/app/localization/paged-texts',
    '/api/app/page-definition',
    '/api/app/permission-definitions',
    '/api/app/notifications',
    '/api/app/audit-logs',
  ])('list %s with a NUL filter answers 400', async (url) => {
    expectRefused(await t.call(admin, { method: 'GET', url: `${url}?Filter=${q(NUL)}` }), /Filter$/);
    expectRefused(await t.call(admin, { method: 'GET', url: `${url}?Sorting=${q(NUL)}` }));
  });

  it('help search and localization columns refuse NUL', async () => {
    expectRefused(await t.call(admin, { method: 'GET', url: `/api/app/help-documents?filter=${q(NUL)}` }), /filter$/);
    expectRefused(await t.call(admin, { method: 'GET', url: `/api/app/localization/paged-texts?Key=${q(NUL)}` }), /Key$/);
  });

  it('a path parameter with NUL is refused', async () => {
    const res = await t.call(admin, { method: 'GET', url: `/api/app/permission-definitions/${q(NUL)}` });
    expect(res.statusCode, res.body).toBe(400);
  });

  const writes: [string, 'POST' | 'PUT', () => string, (bad: string) => object, RegExp][] = [
    ['unit', 'POST', () => '/api/identity/organization-units', (bad) => ({ displayName: bad }), /displayName$/],
    ['role', 'POST', () => '/api/identity/roles', (bad) => ({ name: bad }), /name$/],
    ['user', 'POST', () => '/api/identity/users', (bad) => ({ userName: 'hostile1', name: bad, password: 'User#2026pw' }), /name$/],
    ['dictionary', 'POST', () => '/api/app/business-dictionary', (bad) => ({ code: 'Hostile', title: { 'en-US': bad } }), /title\.en-US$/],
    ['number rule', 'POST', () => '/api/app/document-number', (bad) => ({ code: 'Hostile', name: bad, resetPeriod: 'never', segments: [{ type: 'text', value: 'X-' }, { type: 'serial', width: 5, start: 1, step: 1 }] }), /name$/],
    ['number rule segment', 'POST', () => '/api/app/document-number', (bad) => ({ code: 'Hostile', name: 'n', resetPeriod: 'never', segments: [{ type: 'text', value: bad }, { type: 'serial', width: 5, start: 1, step: 1 }] }), /segments\.0\.value$/],
    ['business menu', 'POST', () => '/api/app/business-menu', (bad) => ({ title: { 'en-US': bad } }), /title\.en-US$/],
    ['localized text', 'POST', () => '/api/app/localization/text', (bad) => ({ culture: 'en-US', resourceName: 'common', key: 'hostile.key', value: bad }), /value$/],
    ['page', 'POST', () => PAGES, (bad) => ({ code: 'HostilePage', name: { 'en-US': bad } }), /name\.en-US$/],
    ['page control title', 'POST', () => PAGES, (bad) => ({ code: 'HostilePage', name: { 'en-US': 'x' }, definition: { viewControls: [view('V', [control('C', 1001, { title: bad })])] } }), /viewControls\.0\.dataControls\.0\.title$/],
    ['page extra property', 'POST', () => PAGES, (bad) => ({ code: 'HostilePage', name: { 'en-US': 'x' }, definition: { viewControls: [view('V', [control('C', 1001, { extraProperties: { placeholder: bad } })])] } }), /extraProperties\.placeholder$/],
    ['permission definition', 'POST', () => '/api/app/permission-definitions', (bad) => ({ name: 'Biz.Hostile', groupName: 'Biz.Hostile', groupDisplayName: { 'en-US': 'g' }, displayName: { 'en-US': bad } }), /displayName\.en-US$/],
    ['notification', 'POST', () => '/api/app/notifications', (bad) => ({ type: 'notice', title: bad, allUsers: true }), /title$/],
    ['view preferences', 'PUT', () => `${BD}/view-preferences`, (bad) => ({ pageId, viewId, value: { saved: [{ name: 'x', filters: [{ value: bad }] }] } }), /value\.saved\.0\.filters\.0\.value$/],
    ['view preferences key', 'PUT', () => `${BD}/view-preferences`, (bad) => ({ pageId, viewId, value: { nested: { [bad]: 1 } } }), /value\.nested/],
    ['data scope', 'PUT', () => `/api/app/data-scopes?roleId=${roleId}`, (bad) => ({ items: [{ pageKey: 'Hostile', scope: 'custom', customFilter: [{ key: 'Name', judgmentMethod: 'eq', value: bad }] }] }), /customFilter\.0\.value$/],
    ['help document', 'POST', () => '/api/app/help-documents', (bad) => ({ key: 'hostile', title: 'Help', markdown: bad }), /markdown$/],
  ];
  it.each(writes.flatMap(([name, ...rest]) => [[`${name} NUL`, ...rest, NUL], [`${name} lone surrogate`, ...rest, LONE]] as const))(
    '%s answers 400 naming the field',
    async (_name, method, url, payload, member, bad) => {
      expectRefused(await t.call(admin, { method, url: url(), payload: payload(bad) }), member);
    },
  );

  it('a key with NUL anywhere in a body is refused', async () => {
    const res = await t.call(admin, { method: 'POST', url: '/api/identity/organization-units', payload: { displayName: 'ok', [NUL]: 'x' } });
    expectRefused(res);
  });

  it.each([NUL, LONE])('record text fields refuse %j through save-page, save-view and the import of values', async (bad) => {
    const save = await t.call(admin, {
      method: 'POST',
      url: `${BD}/save-page`,
      payload: { pageId, viewDataList: [{ viewId, dataList: [{ Id: randomUUID(), Name: bad, Qty: 1 }] }] },
    });
    expectRefused(save, /dataList\.0\.Name$/);
    const tags = await t.call(admin, {
      method: 'POST',
      url: `${BD}/save-view`,
      payload: { pageId, viewId, dataList: [{ Id: randomUUID(), Name: 'ok', Tags: ['a', bad] }] },
    });
    expectRefused(tags, /dataList\.0\.Tags/);
    const unknownField = await t.call(admin, {
      method: 'POST',
      url: `${BD}/save-view`,
      payload: { pageId, viewId, dataList: [{ Id: randomUUID(), Name: 'ok', Elsewhere: { deep: [bad] } }] },
    });
    expectRefused(unknownField, /dataList\.0\.Elsewhere/);
  });

  it.each([NUL, LONE])('query filters refuse %j', async (bad) => {
    for (const judgmentMethod of ['eq', 'contains', 'in']) {
      const res = await t.call(admin, {
        method: 'POST',
        url: `${BD}/query-view-data`,
        payload: { pageId, viewId, filterConditions: [{ key: 'Name', judgmentMethod, value: judgmentMethod === 'in' ? ['x', bad] : bad }] },
      });
      expectRefused(res, /filterConditions/);
    }
    const dropDown = await t.call(admin, { method: 'POST', url: `${BD}/query-view-data`, payload: { pageId, viewId, Sorting: bad } });
    expectRefused(dropDown, /Sorting$/);
  });

  it('well-formed text with astral characters and CJK still saves', async () => {
    const Id = randomUUID();
    await bd(t, admin, 'save-view', { pageId, viewId, dataList: [{ Id, Name: '中文 😀 ok', Qty: 2 }] });
    const rows = (await bd(t, admin, 'query-view-data', { pageId, viewId, filterConditions: [{ key: 'Name', judgmentMethod: 'contains', value: '😀' }] })).items;
    expect(rows.map((r: { Id: string }) => r.Id)).toEqual([Id]);
  });
});

describe('Excel imports', () => {
  // ExcelJS reads Excel's `_xHHHH_` escapes back into characters (and so does the streaming
  // reader): a workbook can carry NUL and lone surrogates that no XML character could. Each import
  // gets a header it accepts, so the read reaches the bad cell A2.
  it.each(['a_x0000_b', 'c_xD800_d'])('a cell holding %s once read is a 400 naming the cell, in every import', async (cell) => {
    const dictionary = await t.call(admin, { method: 'POST', url: '/api/app/business-dictionary', payload: { code: `D${cell.slice(0, 1)}`, title: { 'en-US': 'd' } } });
    expect(dictionary.statusCode, dictionary.body).toBe(200);
    for (const [url, header] of [
      [`${BD}/import-view-data?pageId=${pageId}&viewId=${viewId}`, ['Name']],
      ['/api/identity/users/import', ['用户名', '密码']],
      [`/api/app/business-dictionary/${dictionary.json().id}/import`, ['编码', '名称 (zh-CN)']],
      ['/api/app/localization/import-xlsx?culture=en-US', ['Namespace', 'Key', 'Text']],
    ] as const) {
      const file = await workbookOf([...header], [[cell, ...header.slice(1).map(() => 'x')]]);
      const res = await uploadWorkbook(t, admin, url, file);
      expectRefused(res, /^file$/);
      expect(res.json().error.message, url).toContain('A2');
    }
  });
});

describe('too many bound operands', () => {
  it('70 conditions × 1,000 values answer 400, not 500', async () => {
    const values = Array.from({ length: 1000 }, (_, i) => `v${i}`);
    const filterConditions = Array.from({ length: 70 }, () => ({ key: 'Name', judgmentMethod: 'in', value: values }));
    const res = await t.call(admin, { method: 'POST', url: `${BD}/query-view-data`, payload: { pageId, viewId, filterConditions } });
    expectRefused(res, /filterConditions/);
    const exp = await t.call(admin, { method: 'POST', url: `${BD}/export-view-data`, payload: { pageId, viewId, filterConditions } });
    expect(exp.statusCode, exp.body.slice(0, 500)).toBe(400);
  });

  it('exactly the cap is accepted', async () => {
    const per = 1000;
    const n = Math.floor(MAX_FILTER_OPERANDS / per);
    const values = Array.from({ length: per }, (_, i) => `v${i}`);
    const filterConditions = Array.from({ length: n }, () => ({ key: 'Name', judgmentMethod: 'in', value: values, linkCondition: 'or' }));
    const res = await t.call(admin, { method: 'POST', url: `${BD}/query-view-data`, payload: { pageId, viewId, filterConditions } });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
  });
});

describe('deep and large designs', () => {
  const nested = (depth: number): TPageDefinition => {
    let inner: TView | null = null;
    for (let level = depth; level >= 1; level--) {
      const v: TView = view(`V${level}`, [control(`C${level}`, 1001)]);
      if (inner) {
        inner.viewType = 2;
        inner.parentViewControlId = v.id;
        inner.associateForeignKeyCode = 'ParentViewDataId';
        v.viewControls = [inner];
      }
      inner = v;
    }
    return { viewControls: [inner!], pageButtons: [], dataLinkages: [] };
  };
  const create = (code: string, definition: unknown) =>
    t.call(admin, { method: 'POST', url: PAGES, payload: { code, name: { 'en-US': code }, definition } as object });

  it('views nested past the cap answer 400 naming the path; at the cap a page saves and copies', async () => {
    expectRefused(await create('Deep1000', nested(1000)), /viewControls/);
    expectRefused(await create('Deep800', nested(800)), /viewControls/);
    expectRefused(await create('DeepOver', nested(MAX_VIEW_DEPTH + 1)), /viewControls/);
    const ok = await create('DeepOk', nested(MAX_VIEW_DEPTH));
    expect(ok.statusCode, ok.body.slice(0, 500)).toBe(200);
    const copy = await t.call(admin, { method: 'POST', url: `${PAGES}/${ok.json().id}/copy`, payload: { code: 'DeepOkCopy' } });
    expect(copy.statusCode, copy.body.slice(0, 500)).toBe(200);
  });

  it('too many controls answer 400', async () => {
    const controls = Array.from({ length: MAX_PAGE_CONTROLS + 1 }, (_, i) => control(`C${i}`, 1001));
    expectRefused(await create('Wide', { viewControls: [view('W', controls)], pageButtons: [], dataLinkages: [] }), /dataControls/);
  });

  it('10,000-deep JSON is a 400 on any route, not a stack overflow', async () => {
    // Written as text: JSON.stringify itself overflows the stack on such nesting.
    const deep = '{"viewControls":['.repeat(10_000) + '"x"' + ']}'.repeat(10_000);
    const payload = `{"code":"Deepest","name":{"en-US":"x"},"definition":${deep}}`;
    const res = await t.call(admin, { method: 'POST', url: PAGES, payload, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(400);
    const arrays = '['.repeat(10_000) + ']'.repeat(10_000);
    for (const [url, body] of [
      [`${BD}/view-preferences`, `{"pageId":"${pageId}","viewId":"${viewId}","value":{"x":${arrays}}}`],
      [`${BD}/save-view`, `{"pageId":"${pageId}","viewId":"${viewId}","dataList":[{"Id":"${randomUUID()}","Name":${arrays}}]}`],
      ['/api/Auth/Login', `{"username":${arrays},"password":"x"}`],
    ] as const) {
      const r = await t.call(url === '/api/Auth/Login' ? null : admin, { method: url.endsWith('preferences') ? 'PUT' : 'POST', url, payload: body, headers: { 'content-type': 'application/json' } });
      expect(r.statusCode, `${url}: ${r.body.slice(0, 300)}`).toBe(400);
    }
  });
});
