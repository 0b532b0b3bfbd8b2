import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { P } from '@tessera/core/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { dangerous, XSS_CORPUS } from '../../../test/xss-corpus.ts';

let t: TestApp;
let dataDir: string;
let admin: string;
let writer: string;
let reader: string;
const BASE = '/api/app/help-documents';
const NOWHERE = '0193f0a0-0000-7000-8000-00000000dead';

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-help-'));
  t = await createTestApp({ dataDir });
  admin = await t.login();
  const writers = await createRole(t.database.db, 'help-writers');
  await grant(t.database.db, 'R', writers, [P.HelpManage]);
  await createUser(t.database.db, 'help.writer', { roles: [writers] });
  await createUser(t.database.db, 'help.reader');
  writer = await t.login('help.writer', FIXTURE_PASSWORD);
  reader = await t.login('help.reader', FIXTURE_PASSWORD);
});
afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

const db = () => t.database.db;
const get = (url: string, token: string | null = reader) => t.call(token, { method: 'GET', url });
const post = (url: string, payload: unknown, token: string | null = writer) => t.call(token, { method: 'POST', url, payload: payload as object });
const put = (url: string, payload: unknown, token: string | null = writer) => t.call(token, { method: 'PUT', url, payload: payload as object });
const del = (url: string, token: string | null = writer) => t.call(token, { method: 'DELETE', url });
const upload = (bytes: Buffer, contentType = 'application/octet-stream', token: string | null = writer) =>
  t.call(token, { method: 'POST', url: `${BASE}/images`, payload: bytes, headers: { 'content-type': contentType } });
const create = async (body: object) => {
  const res = await post(BASE, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string; key: string; html: string; markdown: string; concurrencyStamp: string; order: number; parentId: string | null };
};
type Node = { key: string; isMatch: boolean; snippet: string | null; children: Node[] };
const shape = (items: Node[]): unknown[] => items.map((n) => (n.children.length ? [n.key, shape(n.children)] : n.key));
const countDocs = async () => (await db().selectFrom('help_documents').select('id').execute()).length;

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4b50000000049454e44ae426082', 'hex');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(20, 1)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(20, 0)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x10, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(8, 0)]);

describe('seeded documents', () => {
  it('ship the languages and help guides, rendered on first read', async () => {
    const tree = (await get(BASE)).json();
    expect(shape(tree.items)).toEqual(['localization', 'help-documents']);
    const doc = (await get(`${BASE}/by-key/localization`)).json();
    expect(doc.title).toEqual({ 'zh-CN': '语言管理', 'en-US': 'Languages' });
    expect(doc.html).toContain('<h1>语言管理</h1>');
    expect(doc.html).toContain('<code>zh-CN</code>');
    // One body per language (issue 28, defect 6): the Chinese reader no longer meets an English half.
    expect(doc.html).not.toContain('Languages');
    expect(doc.markdown).not.toContain('# Languages');
    expect(doc.translations['en-US']).toMatch(/^# Languages\n/);
    const inEnglish = (key: string, language: string) => t.call(reader, { method: 'GET', url: `${BASE}/by-key/${key}`, headers: { 'accept-language': language } });
    const english = (await inEnglish('localization', 'en-US')).json();
    expect(english.html).toContain('<h1>Languages</h1>');
    expect(english.html).not.toContain('语言管理');
    expect((await inEnglish('help-documents', 'en-GB,en;q=0.8')).json().html).toContain('<h1>Help documents</h1>');
    expect((await inEnglish('help-documents', 'zh-Hant')).json().html).toContain('<h1>帮助文档</h1>');
    expect((await inEnglish('help-documents', 'vi,en-US;q=0.5')).json().html).toContain('<h1>Help documents</h1>');
    // The rest of this file starts from an empty tree.
    await db().deleteFrom('help_documents').execute();
  });
});

describe('help documents', () => {
  let start: { id: string; concurrencyStamp: string };
  let users: { id: string };
  let roles: { id: string };

  it('creates a tree of documents', async () => {
    start = await create({ key: 'getting-started', title: { 'zh-CN': '入门', 'en-US': 'Getting started' }, markdown: '# 欢迎\n\nTessera 帮助。' });
    expect(start).toMatchObject({ key: 'getting-started', parentId: null, order: 0, markdown: '# 欢迎\n\nTessera 帮助。', html: '<h1>欢迎</h1>\n<p>Tessera 帮助。</p>\n' });
    expect(start).toMatchObject({ updatedBy: expect.any(String), updatedByName: 'help.writer' });
    users = await create({ key: 'users', title: { 'zh-CN': '用户管理', 'en-US': 'Users' }, parentId: start.id, markdown: 'Lock a user with the **lock** button; unlock restores sign-in.' });
    roles = await create({ key: 'roles', title: 'Roles', parentId: start.id, markdown: 'Roles group permissions.' });
    await create({ key: 'faq', title: { 'zh-CN': '常见问题' }, markdown: '100% of questions_answered here' });
    const tree = (await get(BASE)).json();
    expect(tree.totalCount).toBe(4);
    expect(shape(tree.items)).toEqual([['getting-started', ['users', 'roles']], 'faq']);
    expect(tree.items[0].children[1]).toMatchObject({ title: 'Roles', order: 1, parentId: start.id, isMatch: true, snippet: null });
  });

  it('searches titles in every language and bodies, keeping parents and giving snippets', async () => {
    const search = async (text: string) => (await get(`${BASE}?filter=${encodeURIComponent(text)}`)).json() as { items: Node[]; totalCount: number };
    const zh = await search('用户');
    expect(shape(zh.items)).toEqual([['getting-started', ['users']]]);
    expect(zh.totalCount).toBe(1);
    expect(zh.items[0]!.isMatch).toBe(false);
    expect(zh.items[0]!.children[0]).toMatchObject({ isMatch: true, snippet: null });
    expect(shape((await search('getting STARTED')).items)).toEqual(['getting-started']);
    const body = await search('unlock');
    expect(shape(body.items)).toEqual([['getting-started', ['users']]]);
    expect(body.items[0]!.children[0]!.snippet).toBe('Lock a user with the lock button; unlock restores sign-in.');
    // Wildcards are literal; JSON keys of titles do not match.
    expect(shape((await search('100%')).items)).toEqual(['faq']);
    expect(shape((await search('%')).items)).toEqual(['faq']);
    expect(shape((await search('s_a')).items)).toEqual(['faq']);
    expect((await search('zh-CN')).totalCount).toBe(0);
    expect((await search('nothing like this')).items).toEqual([]);
    expect((await get(`${BASE}?filter=${'x'.repeat(201)}`)).statusCode).toBe(400);
  });

  it('reads a document by id and by key', async () => {
    const byId = await get(`${BASE}/${users.id}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toMatchObject({ key: 'users', html: '<p>Lock a user with the <strong>lock</strong> button; unlock restores sign-in.</p>\n' });
    const byKey = await get(`${BASE}/by-key/users`);
    expect(byKey.json()).toEqual(byId.json());
    expect((await get(`${BASE}/by-key/nope`)).statusCode).toBe(404);
    expect((await get(`${BASE}/by-key/Not%20A%20Key`)).statusCode).toBe(400);
    expect((await get(`${BASE}/${NOWHERE}`)).statusCode).toBe(404);
    expect((await get(`${BASE}/not-an-id`)).statusCode).toBe(400);
  });

  it('rejects bad documents before writing', async () => {
    const before = await countDocs();
    const ok = { key: 'ok-key', title: 'T', markdown: '' };
    const bad = [
      {},
      { ...ok, key: '' },
      { ...ok, key: 'Upper' },
      { ...ok, key: 'has space' },
      { ...ok, key: '-leading' },
      { ...ok, key: 'x'.repeat(101) },
      { ...ok, key: 'users' },
      { ...ok, title: '' },
      { ...ok, title: {} },
      { ...ok, title: { 'zh-CN': ' ' } },
      { ...ok, title: 42 },
      { ...ok, markdown: 'x'.repeat(200_001) },
      { ...ok, markdown: undefined },
      { ...ok, parentId: 'nope' },
      { ...ok, parentId: NOWHERE },
      { ...ok, order: -1 },
      { ...ok, translations: { english: 'x' } },
      { ...ok, translations: { 'en-US': 'x'.repeat(200_001) } },
      { ...ok, translations: { 'en-US': 42 } },
      { ...ok, translations: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`l${String.fromCharCode(97 + i)}-X${i}`, 'x'])) },
    ];
    for (const body of bad) {
      const res = await post(BASE, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().error.validationErrors.length).toBeGreaterThan(0);
    }
    expect(await countDocs()).toBe(before);
  });

  it('updates, moves, refuses cycles and stale writes', async () => {
    const url = `${BASE}/${roles.id}`;
    const res = await put(url, { key: 'roles', title: { 'zh-CN': '角色', 'en-US': 'Roles' }, markdown: 'Roles _group_ permissions.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ title: { 'zh-CN': '角色', 'en-US': 'Roles' }, parentId: start.id, html: '<p>Roles <em>group</em> permissions.</p>\n' });
    // Omitting parentId keeps it; null moves to the top level, after the others.
    const top = await put(url, { key: 'roles', title: 'Roles', markdown: 'x', parentId: null });
    expect(top.json()).toMatchObject({ parentId: null, order: 2 });
    expect(shape((await get(BASE)).json().items)).toEqual([['getting-started', ['users']], 'faq', 'roles']);
    expect((await put(`${BASE}/${start.id}`, { key: 'getting-started', title: 'x', markdown: '', parentId: users.id })).statusCode).toBe(400);
    expect((await put(`${BASE}/${start.id}`, { key: 'getting-started', title: 'x', markdown: '', parentId: start.id })).statusCode).toBe(400);
    expect((await put(url, { key: 'users', title: 'x', markdown: '' })).statusCode).toBe(400);
    expect((await put(url, { key: 'roles', title: 'x', markdown: '', concurrencyStamp: 'stale' })).statusCode).toBe(409);
    expect((await put(`${BASE}/${NOWHERE}`, { key: 'zz', title: 'x', markdown: '' })).statusCode).toBe(404);
    const audit = await db().selectFrom('audit_logs').select(['action', 'details']).where('entity_id', '=', roles.id).orderBy('time').execute();
    expect(audit.map((a) => a.action)).toEqual(['Created', 'Updated', 'Updated']);
    expect(audit[1]!.details).toMatchObject({ before: { title: 'Roles', markdown: 'Roles group permissions.' }, after: { markdown: 'Roles _group_ permissions.' } });
  });

  it('keeps one body per language and shows the caller’s', async () => {
    const doc = await create({ key: 'bilingual', title: { 'zh-CN': '双语', 'en-US': 'Bilingual' }, markdown: '中文正文', translations: { 'en-US': 'English **body**', vi: '  ' } });
    // An empty body is no translation.
    expect((await get(`${BASE}/${doc.id}`)).json()).toMatchObject({ markdown: '中文正文', translations: { 'en-US': 'English **body**' }, html: '<p>中文正文</p>\n' });
    const inLanguage = (language: string) => t.call(reader, { method: 'GET', url: `${BASE}/by-key/bilingual`, headers: { 'accept-language': language } });
    expect((await inLanguage('en-US')).json().html).toBe('<p>English <strong>body</strong></p>\n');
    expect((await inLanguage('zh-CN,en-US;q=0.9')).json().html).toBe('<p>中文正文</p>\n');
    expect((await inLanguage('th')).json().html).toBe('<p>中文正文</p>\n');
    // Found by its English words, with the English snippet.
    const found = (await get(`${BASE}?filter=${encodeURIComponent('English')}`)).json();
    expect(found.items.map((n: Node) => n.key)).toEqual(['bilingual']);
    expect(found.items[0].snippet).toContain('English body');
    // Left out on update: kept; sent: replaced (an empty one removed).
    const kept = await put(`${BASE}/${doc.id}`, { key: 'bilingual', title: 'Bilingual', markdown: '新正文' });
    expect(kept.json().translations).toEqual({ 'en-US': 'English **body**' });
    const replaced = await put(`${BASE}/${doc.id}`, { key: 'bilingual', title: 'Bilingual', markdown: '新正文', translations: { 'en-US': '', vi: 'Tiếng Việt' } });
    expect(replaced.json().translations).toEqual({ vi: 'Tiếng Việt' });
    // A translation is sanitised like the default body.
    const hostile = await put(`${BASE}/${doc.id}`, { key: 'bilingual', title: 'Bilingual', markdown: 'x', translations: { 'en-US': XSS_CORPUS.join('\n\n') } });
    expect(hostile.statusCode).toBe(200);
    expect(dangerous((await inLanguage('en-US')).json().html)).toEqual([]);
    await del(`${BASE}/${doc.id}`);
  });

  it('deletes a document with sub-documents only when the cascade is confirmed', async () => {
    const parent = await create({ key: 'to-delete', title: 'Parent', markdown: '' });
    const child = await create({ key: 'to-delete.child', title: 'Child', parentId: parent.id, markdown: '' });
    const refused = await del(`${BASE}/${parent.id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.validationErrors[0].members).toEqual(['cascade']);
    expect((await del(`${BASE}/${parent.id}?cascade=maybe`)).statusCode).toBe(400);
    expect((await del(`${BASE}/${parent.id}?cascade=true`)).statusCode).toBe(204);
    expect((await get(`${BASE}/${child.id}`)).statusCode).toBe(404);
    expect((await del(`${BASE}/${parent.id}`)).statusCode).toBe(404);
    const leaf = await create({ key: 'leaf', title: 'Leaf', markdown: '' });
    expect((await del(`${BASE}/${leaf.id}`)).statusCode).toBe(204);
  });

  it('lets every signed-in user read, only HelpManage holders write', async () => {
    const body = { key: 'guarded', title: 'x', markdown: '' };
    for (const token of [reader, null]) {
      const expected = token ? 403 : 401;
      expect((await post(BASE, body, token)).statusCode).toBe(expected);
      expect((await put(`${BASE}/${users.id}`, body, token)).statusCode).toBe(expected);
      expect((await del(`${BASE}/${users.id}`, token)).statusCode).toBe(expected);
      expect((await post(`${BASE}/preview`, { markdown: 'x' }, token)).statusCode).toBe(expected);
      expect((await upload(PNG, 'image/png', token)).statusCode).toBe(expected);
    }
    expect((await get(BASE, null)).statusCode).toBe(401);
    expect((await get(`${BASE}/${users.id}`, null)).statusCode).toBe(401);
    expect((await get(`${BASE}/by-key/users`, null)).statusCode).toBe(401);
    expect((await get(`${BASE}/${users.id}`, reader)).statusCode).toBe(200);
    // The administrator holds every code.
    expect((await post(`${BASE}/preview`, { markdown: '**x**' }, admin)).json()).toEqual({ html: '<p><strong>x</strong></p>\n' });
    const routes = t.app.routeTable.filter((r) => r.url.startsWith(BASE));
    for (const r of routes) {
      const methods = Array.isArray(r.method) ? r.method : [r.method];
      if (methods.includes('GET') || methods.includes('HEAD')) expect(r.access, r.url).toEqual({ kind: 'signedIn' });
      else expect(r.access, `${methods} ${r.url}`).toEqual({ kind: 'permission', code: P.HelpManage });
    }
  });
});

describe('sanitised HTML', () => {
  const UNCLOSED = new Set(['<svg onload=alert(1)>', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>']);
  it('stores and serves every XSS payload neutralised, in one document and one by one', async () => {
    const all = await create({ key: 'xss-all', title: '<img src=x onerror=alert(1)>', markdown: XSS_CORPUS.join('\n\n') });
    expect(dangerous(all.html), all.html).toEqual([]);
    // The title is data, not HTML: it comes back as written (the web app renders it as text).
    expect((await get(`${BASE}/${all.id}`)).json().title).toBe('<img src=x onerror=alert(1)>');
    for (const [i, payload] of XSS_CORPUS.entries()) {
      const doc = await create({ key: `xss-${i}`, title: `Payload ${i}`, markdown: `Before ${i}\n\n${payload}\n\nAfter ${i}` });
      const served = (await get(`${BASE}/by-key/xss-${i}`)).json().html as string;
      expect(dangerous(served), `${payload} → ${served}`).toEqual([]);
      expect(served).toContain(`Before ${i}`);
      // An unclosed dropped element (<svg …>, <math>) takes the rest of the block with it, as in a browser.
      if (!UNCLOSED.has(payload)) expect(served, payload).toContain(`After ${i}`);
      const preview = (await post(`${BASE}/preview`, { markdown: payload })).json().html;
      expect(dangerous(preview), preview).toEqual([]);
      await del(`${BASE}/${doc.id}`);
    }
    const stored = await db().selectFrom('help_documents').select('html').where('id', '=', all.id).executeTakeFirstOrThrow();
    expect(dangerous(stored.html)).toEqual([]);
  });

  it('renders again what an older renderer stored', async () => {
    const doc = await create({ key: 'legacy', title: 'Legacy', markdown: 'Plain **text**' });
    await db().updateTable('help_documents').set({ html: '<img src=x onerror=alert(1)>', render_version: 0 }).where('id', '=', doc.id).execute();
    const served = (await get(`${BASE}/${doc.id}`)).json().html;
    expect(served).toBe('<p>Plain <strong>text</strong></p>\n');
  });
});

describe('help images', () => {
  it('accepts PNG, JPEG, GIF and WebP by their bytes and serves them to signed-in users', async () => {
    for (const [bytes, type, ext] of [
      [PNG, 'image/png', 'png'],
      [JPEG, 'image/jpeg', 'jpg'],
      [GIF, 'application/octet-stream', 'gif'],
      [WEBP, 'image/webp', 'webp'],
    ] as const) {
      const res = await upload(bytes, type);
      expect(res.statusCode, res.body).toBe(200);
      const image = res.json();
      expect(image.name).toMatch(new RegExp(`^[0-9a-f-]{36}\\.${ext}$`));
      expect(image).toMatchObject({ url: `${BASE}/images/${image.name}`, size: bytes.length });
      const served = await get(image.url, reader);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(image.contentType);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.rawPayload.equals(bytes)).toBe(true);
      expect((await get(image.url, null)).statusCode).toBe(401);
    }
    const files = await readdir(path.join(dataDir, 'files', 'help'));
    expect(files).toHaveLength(4);
  });

  it('refuses anything else: SVG, HTML named as PNG, empty, oversized, other content types', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>');
    expect((await upload(svg, 'image/png')).statusCode).toBe(400);
    expect((await upload(Buffer.from('<html><script>alert(1)</script></html>'), 'image/png')).statusCode).toBe(400);
    expect((await upload(Buffer.from('GIF87'), 'image/gif')).statusCode).toBe(400);
    expect((await upload(Buffer.from('RIFF\u0000\u0000\u0000\u0000AVI '), 'image/webp')).statusCode).toBe(400);
    expect((await upload(Buffer.alloc(0), 'image/png')).statusCode).toBe(400);
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    expect((await upload(big, 'image/png')).statusCode).toBe(413);
    const justUnder = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 - PNG.length)]);
    expect((await upload(justUnder, 'image/png')).statusCode).toBe(200);
    expect((await upload(PNG, 'image/svg+xml')).statusCode).toBe(415);
    expect((await upload(PNG, 'text/html')).statusCode).toBe(415);
    expect((await t.call(writer, { method: 'POST', url: `${BASE}/images`, payload: { content: PNG.toString('base64') } })).statusCode).toBe(400);
    expect(await readdir(path.join(dataDir, 'files', 'help'))).toHaveLength(5);
  });

  it('serves only stored names', async () => {
    for (const name of ['..%2F..%2Fetc%2Fpasswd', 'x.png', '0190a0a0-0000-7000-8000-000000000001.svg', '0190A0A0-0000-7000-8000-000000000001.png']) {
      expect((await get(`${BASE}/images/${name}`)).statusCode, name).toBe(400);
    }
    expect((await get(`${BASE}/images/0190a0a0-0000-7000-8000-000000000001.png`)).statusCode).toBe(404);
  });
});
