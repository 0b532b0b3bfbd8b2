import { IMPORT_MAX_TEXTS } from '@tessera/core/contracts/localization';
import { P } from '@tessera/core/contracts/permissions';
import { uuidv7 } from '../../platform/ids.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { largeWorkbook, refusedMembers, uploadWorkbook, workbookOf } from '../../../test/workbook-upload.ts';

let t: TestApp;
let admin: string;
let reader: string;
let nobody: string;
const BASE = '/api/app/localization';
const NOWHERE = '0193f0a0-0000-7000-8000-00000000dead';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const readers = await createRole(t.database.db, 'translation-readers');
  await grant(t.database.db, 'R', readers, [P.Localization]);
  await createUser(t.database.db, 'l10n.reader', { roles: [readers] });
  await createUser(t.database.db, 'l10n.nobody');
  reader = await t.login('l10n.reader', FIXTURE_PASSWORD);
  nobody = await t.login('l10n.nobody', FIXTURE_PASSWORD);
});
afterAll(() => t.close());

const db = () => t.database.db;
const get = (url: string, token: string | null = admin, headers: Record<string, string> = {}) => t.call(token, { method: 'GET', url, headers });
const post = (url: string, payload: unknown, token: string | null = admin) => t.call(token, { method: 'POST', url, payload: payload as object });
const put = (url: string, payload: unknown, token: string | null = admin) => t.call(token, { method: 'PUT', url, payload: payload as object });
const del = (url: string, token: string | null = admin) => t.call(token, { method: 'DELETE', url });
const version = async () => (await get(`${BASE}/version`, null)).json().version as number;
const dictionary = async (culture: string) => (await get(`${BASE}/language-dictionary?culture=${encodeURIComponent(culture)}`, null)).json();
const countRows = async (table: 'language_packs' | 'localization_texts') => (await db().selectFrom(table).select('id').execute()).length;

describe('language packs', () => {
  let french: { id: string; concurrencyStamp: string };

  it('lists the seven seeded packs to anyone, in order, with zh-CN the default', async () => {
    const res = await get(`${BASE}/language-packs`, null);
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((p: { culture: string; title: string }) => `${p.culture} ${p.title}`)).toEqual([
      'zh-CN 简体中文',
      'en-US English',
      'zh-Hant 繁體中文',
      'km ខ្មែរ',
      'my မြန်မာ',
      'vi Tiếng Việt',
      'th ไทย',
    ]);
    const list = (await post('/api/system/i18n/list', {}, null)).json();
    expect(list.defaultCulture).toBe('zh-CN');
    expect(list.items).toHaveLength(7);
    expect(list.items[0]).toEqual({ culture: 'zh-CN', title: '简体中文', flag: 'CN', isDefault: true });
  });

  it('shows every pack with its settings to translators only', async () => {
    expect((await get(`${BASE}/language-packs/all`, null)).statusCode).toBe(401);
    expect((await get(`${BASE}/language-packs/all`, nobody)).statusCode).toBe(403);
    const all = (await get(`${BASE}/language-packs/all`, reader)).json();
    expect(all.totalCount).toBe(7);
    expect(all.items[0]).toMatchObject({ culture: 'zh-CN', isBuiltIn: true, isDefault: true, isEnabled: true, textCount: 0, order: 0 });
    expect(all.items.find((p: { culture: string }) => p.culture === 'th')).toMatchObject({ isBuiltIn: false, flag: 'TH' });
  });

  it('rejects bad packs before writing anything', async () => {
    const before = await countRows('language_packs');
    const bad = [
      {},
      { culture: 'fr-FR' },
      { culture: 'french', title: 'Français' },
      { culture: 'fr_FR', title: 'Français' },
      { culture: 'FR-fr', title: 'Français' },
      { culture: 'fr-FR', title: '' },
      { culture: 'fr-FR', title: 'x'.repeat(101) },
      { culture: 'fr-FR', title: 'Français', flag: 'fra' },
      { culture: 'fr-FR', title: 'Français', order: -1 },
      { culture: 'fr-FR', title: 'Français', isDefault: true, isEnabled: false },
      { culture: 'en-US', title: 'English again' },
      { culture: 'zh-hant'.replace('hant', 'Hant'), title: 'dup' },
    ];
    for (const body of bad) {
      const res = await post(`${BASE}/language-pack`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.validationErrors.length).toBeGreaterThan(0);
    }
    expect(await countRows('language_packs')).toBe(before);
  });

  it('adds a pack; only holders of the manage code may', async () => {
    expect((await post(`${BASE}/language-pack`, { culture: 'fr-FR', title: 'Français' }, reader)).statusCode).toBe(403);
    expect((await post(`${BASE}/language-pack`, { culture: 'fr-FR', title: 'Français' }, null)).statusCode).toBe(401);
    const v = await version();
    const res = await post(`${BASE}/language-pack`, { culture: 'fr-FR', title: 'Français', flag: 'FR' });
    expect(res.statusCode, res.body).toBe(200);
    french = res.json();
    expect(french).toMatchObject({ culture: 'fr-FR', title: 'Français', flag: 'FR', isEnabled: true, isDefault: false, isBuiltIn: false, order: 7, textCount: 0 });
    expect(await version()).toBe(v + 1);
    const cultures = (await get(`${BASE}/language-packs`, null)).json().items.map((p: { culture: string }) => p.culture);
    expect(cultures.at(-1)).toBe('fr-FR');
    const audit = await db().selectFrom('audit_logs').selectAll().where('entity_id', '=', french.id).execute();
    expect(audit.map((a) => a.action)).toEqual(['Created']);
  });

  it('updates a pack, keeps exactly one default, refuses stale and impossible changes', async () => {
    const url = `${BASE}/${french.id}/language-pack`;
    expect((await put(url, { culture: 'fr-FR', title: 'French' }, reader)).statusCode).toBe(403);
    const renamed = await put(url, { culture: 'fr-FR', title: 'Français (France)', order: 3, concurrencyStamp: french.concurrencyStamp });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ title: 'Français (France)', order: 3, flag: 'FR', isEnabled: true });
    expect((await put(url, { culture: 'fr-FR', title: 'x', concurrencyStamp: french.concurrencyStamp })).statusCode).toBe(409);
    expect((await put(url, { culture: 'fr-CA', title: 'x' })).statusCode).toBe(400);
    expect((await put(`${BASE}/${NOWHERE}/language-pack`, { culture: 'fr-FR', title: 'x' })).statusCode).toBe(404);
    expect((await put(`${BASE}/nope/language-pack`, { culture: 'fr-FR', title: 'x' })).statusCode).toBe(400);

    // Making French the default takes it from zh-CN; the default cannot be switched off or disabled.
    expect((await put(url, { culture: 'fr-FR', title: 'Français', isDefault: true })).json().isDefault).toBe(true);
    expect((await post('/api/system/i18n/list', {}, null)).json().defaultCulture).toBe('fr-FR');
    const zh = (await get(`${BASE}/language-packs/all`)).json().items.find((p: { culture: string }) => p.culture === 'zh-CN');
    expect(zh.isDefault).toBe(false);
    expect((await put(url, { culture: 'fr-FR', title: 'Français', isDefault: false })).statusCode).toBe(400);
    expect((await put(url, { culture: 'fr-FR', title: 'Français', isEnabled: false })).statusCode).toBe(400);
    expect((await del(url)).statusCode).toBe(400);
    expect((await put(`${BASE}/${zh.id}/language-pack`, { culture: 'zh-CN', title: '简体中文', isDefault: true })).statusCode).toBe(200);
    expect((await post('/api/system/i18n/list', {}, null)).json().defaultCulture).toBe('zh-CN');

    // Disabled packs leave the selector.
    expect((await put(url, { culture: 'fr-FR', title: 'Français', isEnabled: false })).json()).toMatchObject({ isEnabled: false, isDefault: false });
    expect((await get(`${BASE}/language-packs`, null)).json().items.map((p: { culture: string }) => p.culture)).not.toContain('fr-FR');
    expect((await put(url, { culture: 'fr-FR', title: 'Français', isEnabled: true })).json().isEnabled).toBe(true);
  });

  it('never deletes zh-CN or en-US; deletes other packs with their texts', async () => {
    const all = (await get(`${BASE}/language-packs/all`)).json().items as { id: string; culture: string }[];
    for (const culture of ['zh-CN', 'en-US']) {
      const res = await del(`${BASE}/${all.find((p) => p.culture === culture)!.id}/language-pack`);
      expect(res.statusCode).toBe(400);
    }
    const german = (await post(`${BASE}/language-pack`, { culture: 'de-DE', title: 'Deutsch' })).json();
    expect((await post(`${BASE}/text`, { culture: 'de-DE', resourceName: 'common', key: 'ok', value: 'OK' })).statusCode).toBe(200);
    expect((await del(`${BASE}/${german.id}/language-pack`, reader)).statusCode).toBe(403);
    expect((await del(`${BASE}/${german.id}/language-pack`)).statusCode).toBe(204);
    expect(await db().selectFrom('localization_texts').select('id').where('culture', '=', 'de-DE').execute()).toHaveLength(0);
    expect((await del(`${BASE}/${german.id}/language-pack`)).statusCode).toBe(404);
    const audit = await db().selectFrom('audit_logs').select(['action', 'details']).where('entity_id', '=', german.id).orderBy('time').execute();
    expect(audit.map((a) => a.action)).toEqual(['Created', 'Deleted']);
    expect(audit[1]!.details).toMatchObject({ before: { culture: 'de-DE', textCount: 1 } });
  });
});

describe('texts', () => {
  let subtitle: { id: string };

  it('adds a text for a pack', async () => {
    const res = await post(`${BASE}/text`, { culture: 'fr-FR', resourceName: 'common', key: 'login.subtitle', value: 'Administration low-code' });
    expect(res.statusCode, res.body).toBe(200);
    subtitle = res.json();
    expect(subtitle).toMatchObject({ culture: 'fr-FR', resourceName: 'common', key: 'login.subtitle', value: 'Administration low-code', lastModifierName: 'admin' });
    expect((await post(`${BASE}/text`, { culture: 'fr-FR', resourceName: 'common', key: 'ok', value: 'D’accord' }, reader)).statusCode).toBe(403);
    expect((await post(`${BASE}/text`, { culture: 'fr-FR', resourceName: 'common', key: 'ok', value: 'D’accord' }, nobody)).statusCode).toBe(403);
  });

  it('rejects bad texts, duplicates and keys that clash with a group', async () => {
    const before = await countRows('localization_texts');
    const v = await version();
    const ok = { culture: 'fr-FR', resourceName: 'common', key: 'save', value: 'Enregistrer' };
    const bad = [
      {},
      { ...ok, culture: 'xx-YY' },
      { ...ok, culture: 'fr' },
      { ...ok, culture: 'not a culture' },
      { ...ok, resourceName: '' },
      { ...ok, resourceName: '1common' },
      { ...ok, resourceName: 'com mon' },
      { ...ok, key: '' },
      { ...ok, key: 'has space' },
      { ...ok, key: 'a..b' },
      { ...ok, key: '.a' },
      { ...ok, key: '__proto__.polluted' },
      { ...ok, key: 'a.constructor' },
      { ...ok, resourceName: 'constructor' },
      { ...ok, value: '' },
      { ...ok, value: 'x'.repeat(4001) },
      { ...ok, value: 42 },
      { ...ok, key: 'login.subtitle' },
      { ...ok, key: 'login' },
      { ...ok, key: 'login.subtitle.more' },
    ];
    for (const body of bad) {
      const res = await post(`${BASE}/text`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.validationErrors.length).toBeGreaterThan(0);
    }
    expect(await countRows('localization_texts')).toBe(before);
    expect(await version()).toBe(v);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('updates and deletes a text', async () => {
    const url = `${BASE}/${subtitle.id}/text`;
    expect((await put(url, { culture: 'fr-FR', resourceName: 'common', key: 'login.subtitle', value: 'x' }, reader)).statusCode).toBe(403);
    const res = await put(url, { culture: 'fr-FR', resourceName: 'common', key: 'login.subtitle', value: 'Plateforme de gestion low-code' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ value: 'Plateforme de gestion low-code' });
    expect(res.json().lastModificationTime).not.toBeNull();
    const extra = (await post(`${BASE}/text`, { culture: 'fr-FR', resourceName: 'common', key: 'cancel', value: 'Annuler' })).json();
    // Renaming onto another text's key is a duplicate.
    expect((await put(`${BASE}/${extra.id}/text`, { culture: 'fr-FR', resourceName: 'common', key: 'login.subtitle', value: 'x' })).statusCode).toBe(400);
    expect((await put(`${BASE}/${NOWHERE}/text`, { culture: 'fr-FR', resourceName: 'common', key: 'k', value: 'x' })).statusCode).toBe(404);
    expect((await del(`${BASE}/${extra.id}/text`, reader)).statusCode).toBe(403);
    expect((await del(`${BASE}/${extra.id}/text`)).statusCode).toBe(204);
    expect((await del(`${BASE}/${extra.id}/text`)).statusCode).toBe(404);
    const audit = await db().selectFrom('audit_logs').select(['action', 'details']).where('entity_id', '=', subtitle.id).orderBy('time').execute();
    expect(audit.map((a) => a.action)).toEqual(['Created', 'Updated']);
    expect(audit[1]!.details).toMatchObject({ before: { value: 'Administration low-code' }, after: { value: 'Plateforme de gestion low-code' } });
  });
});

describe('paged texts', () => {
  beforeAll(async () => {
    const texts: [string, string, string, string][] = [
      ['en-US', 'shell', 'console.greeting', 'Hello, {{name}}'],
      ['en-US', 'shell', 'logout', 'Sign out'],
      ['en-US', 'common', 'login.subtitle', 'Low-code administration'],
      ['en-US', 'custom', 'banner', 'Welcome to the plant'],
      ['fr-FR', 'shell', 'logout', 'Se déconnecter'],
    ];
    for (const [culture, resourceName, key, value] of texts) {
      const res = await post(`${BASE}/text`, { culture, resourceName, key, value });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  const paged = async (query: string, token = admin) => {
    const res = await get(`${BASE}/paged-texts?${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: { id: string | null; culture: string; resourceName: string; key: string; value: string | null; referenceValue: string | null; isMissing: boolean }[]; totalCount: number };
  };
  const keys = (page: { items: { resourceName: string; key: string }[] }) => page.items.map((i) => `${i.resourceName}:${i.key}`);

  it('filters by culture, namespace, key, value and free text; pages and sorts', async () => {
    expect((await paged('')).totalCount).toBe(6);
    expect(keys(await paged('Culture=fr-FR'))).toEqual(['common:login.subtitle', 'shell:logout']);
    expect(keys(await paged('Culture=en-US&ResourceName=shell'))).toEqual(['shell:console.greeting', 'shell:logout']);
    expect(keys(await paged('Key=GREET'))).toEqual(['shell:console.greeting']);
    expect(keys(await paged('Value=d%C3%A9connecter'))).toEqual(['shell:logout']);
    expect(keys(await paged('Filter=plant'))).toEqual(['custom:banner']);
    // LIKE wildcards in the text are literal.
    expect((await paged('Filter=%25')).totalCount).toBe(0);
    expect((await paged('Filter=_')).totalCount).toBe(0);
    const page = await paged('Culture=en-US&Sorting=key%20desc&SkipCount=1&MaxResultCount=2');
    expect(page.totalCount).toBe(4);
    expect(page.items.map((i) => i.key)).toEqual(['login.subtitle', 'console.greeting']);
    // An unknown sort column falls back to namespace, key.
    expect(keys(await paged('Culture=fr-FR&Sorting=password_hash'))).toEqual(['common:login.subtitle', 'shell:logout']);
  });

  it('pairs texts with a reference culture and lists what is missing', async () => {
    const side = await paged('Culture=fr-FR&ReferenceCulture=en-US&Sorting=key');
    expect(side.totalCount).toBe(4);
    expect(side.items.map((i) => [i.key, i.value, i.referenceValue, i.isMissing])).toEqual([
      ['banner', null, 'Welcome to the plant', true],
      ['console.greeting', null, 'Hello, {{name}}', true],
      ['login.subtitle', 'Plateforme de gestion low-code', 'Low-code administration', false],
      ['logout', 'Se déconnecter', 'Sign out', false],
    ]);
    expect(side.items.every((i) => i.culture === 'fr-FR')).toBe(true);
    expect(side.items.filter((i) => i.isMissing).every((i) => i.id === null)).toBe(true);
    const missing = await paged('Culture=fr-FR&ReferenceCulture=en-US&OnlyMissing=true');
    expect(keys(missing)).toEqual(['custom:banner', 'shell:console.greeting']);
    expect(keys(await paged('Culture=fr-FR&ReferenceCulture=en-US&OnlyMissing=true&ResourceName=shell'))).toEqual(['shell:console.greeting']);
    expect(keys(await paged('Culture=fr-FR&ReferenceCulture=en-US&OnlyMissing=true&Filter=plant'))).toEqual(['custom:banner']);
    // The other way round: French texts English lacks.
    expect(keys(await paged('Culture=en-US&ReferenceCulture=fr-FR&OnlyMissing=true'))).toEqual([]);
    // Readers may list; others may not.
    expect((await paged('Culture=fr-FR&ReferenceCulture=en-US', reader)).totalCount).toBe(4);
    expect((await get(`${BASE}/paged-texts`, nobody)).statusCode).toBe(403);
  });

  it('rejects bad queries', async () => {
    for (const query of [
      'MaxResultCount=0',
      'MaxResultCount=1001',
      'SkipCount=-1',
      'Culture=nope!',
      'ReferenceCulture=en-US',
      'Culture=fr-FR&OnlyMissing=true',
      'Culture=fr-FR&ReferenceCulture=fr-FR',
      'Culture=fr-FR&ReferenceCulture=en-US&OnlyMissing=maybe',
    ]) {
      const res = await get(`${BASE}/paged-texts?${query}`);
      expect(res.statusCode, query).toBe(400);
    }
  });
});

describe('language dictionary', () => {
  it('nests texts by namespace and lays administrators\' texts over the built-in ones', async () => {
    const fr = await dictionary('fr-FR');
    expect(fr).toEqual({ common: { login: { subtitle: 'Plateforme de gestion low-code' } }, shell: { logout: 'Se déconnecter' } });
    const th = await dictionary('th');
    expect(th.common.login.title).toBe('เข้าสู่ระบบ');
    expect(th.common.ok).toBe('ตกลง');
    // The shell's own namespaces ship built in for the offered languages too.
    const vi = await dictionary('vi');
    expect(vi.menu.dashboard).toBe('Bảng điều khiển');
    expect(vi.shell.console.greeting.morning).toContain('{{name}}');
    for (const culture of ['km', 'my']) expect(Object.keys(await dictionary(culture)).sort(), culture).toEqual(['common', 'menu', 'shell']);
    await post(`${BASE}/text`, { culture: 'th', resourceName: 'common', key: 'login.title', value: 'ลงชื่อเข้าใช้' });
    await post(`${BASE}/text`, { culture: 'th', resourceName: 'custom', key: 'banner', value: 'ยินดีต้อนรับ' });
    const overlaid = await dictionary('th');
    expect(overlaid.common.login.title).toBe('ลงชื่อเข้าใช้');
    expect(overlaid.common.login.submit).toBe('เข้าสู่ระบบ');
    expect(overlaid.custom).toEqual({ banner: 'ยินดีต้อนรับ' });
    const en = await dictionary('en-US');
    expect(en.shell).toEqual({ console: { greeting: 'Hello, {{name}}' }, logout: 'Sign out' });
  });

  it('validates the culture', async () => {
    for (const culture of ['', 'nope!', 'zh_CN', '../etc']) {
      expect((await get(`${BASE}/language-dictionary?culture=${encodeURIComponent(culture)}`, null)).statusCode, culture).toBe(400);
    }
    expect((await get(`${BASE}/language-dictionary`, null)).statusCode).toBe(400);
    expect((await get(`${BASE}/language-dictionary?culture=es-ES`, null)).statusCode).toBe(404);
    const fr = (await get(`${BASE}/language-packs/all`)).json().items.find((p: { culture: string }) => p.culture === 'fr-FR');
    await put(`${BASE}/${fr.id}/language-pack`, { culture: 'fr-FR', title: fr.title, isEnabled: false });
    expect((await get(`${BASE}/language-dictionary?culture=fr-FR`, null)).statusCode).toBe(404);
    await put(`${BASE}/${fr.id}/language-pack`, { culture: 'fr-FR', title: fr.title, isEnabled: true });
    expect((await get(`${BASE}/language-dictionary?culture=fr-FR`, null)).statusCode).toBe(200);
  });

  it('answers from the cache until a change bumps the version, and 304 for an unchanged version', async () => {
    const first = await get(`${BASE}/language-dictionary?culture=en-US`, null);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"l10n-\d+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const notModified = await get(`${BASE}/language-dictionary?culture=en-US`, null, { 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');

    // A write straight to the table (no version bump) is not seen: the answer comes from the cache.
    await db()
      .insertInto('localization_texts')
      .values({ id: uuidv7(), culture: 'en-US', resource_name: 'shell', key: 'sneaky', value: 'not through the API', creator_id: null, last_modification_time: null, last_modifier_id: null, last_modifier_name: null })
      .execute();
    expect((await dictionary('en-US')).shell.sneaky).toBeUndefined();

    // Any change through the API bumps the version: the next read rebuilds, with a new ETag.
    const v = await version();
    const created = (await post(`${BASE}/text`, { culture: 'en-US', resourceName: 'shell', key: 'console.title', value: 'Console' })).json();
    expect(await version()).toBe(v + 1);
    const fresh = await get(`${BASE}/language-dictionary?culture=en-US`, null, { 'if-none-match': etag });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers.etag).not.toBe(etag);
    expect(fresh.json().shell).toMatchObject({ sneaky: 'not through the API', console: { greeting: 'Hello, {{name}}', title: 'Console' } });

    // Another node's change (only the version row moves here) is picked up as well.
    await db().updateTable('localization_texts').set({ value: 'Changed elsewhere' }).where('id', '=', created.id).execute();
    expect((await dictionary('en-US')).shell.console.title).toBe('Console');
    await db().updateTable('localization_version').set((eb) => ({ version: eb('version', '+', 1) })).execute();
    expect((await dictionary('en-US')).shell.console.title).toBe('Changed elsewhere');

    // Deleting restores the built-in text.
    const thTitle = (await get(`${BASE}/paged-texts?Culture=th&Key=login.title`)).json().items[0];
    await del(`${BASE}/${thTitle.id}/text`);
    expect((await dictionary('th')).common.login.title).toBe('เข้าสู่ระบบ');
  });
});

describe('import and export', () => {
  const download = async (culture: string, format: 'json' | 'xlsx', token = admin) => get(`${BASE}/export?culture=${culture}&format=${format}`, token);
  const importXlsx = (culture: string, body: Buffer | string, token: string | null = admin, headers: Record<string, string> = {}) =>
    uploadWorkbook(t, token, `${BASE}/import-xlsx?culture=${encodeURIComponent(culture)}`, body, { headers });

  it('exports a pack as JSON and Excel (built-in and administrators\' texts)', async () => {
    const json = await download('th', 'json');
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-disposition']).toContain('language-pack-th.json');
    const file = json.json();
    expect(file).toMatchObject({ culture: 'th', title: 'ไทย' });
    expect(file.texts.common.login.submit).toBe('เข้าสู่ระบบ');
    expect(file.texts.custom.banner).toBe('ยินดีต้อนรับ');
    const xlsx = await download('th', 'xlsx');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect((await download('th', 'json', reader)).statusCode).toBe(200);
    expect((await download('th', 'json', nobody)).statusCode).toBe(403);
    expect((await download('es-ES', 'json')).statusCode).toBe(404);
    expect((await get(`${BASE}/export?culture=th&format=csv`)).statusCode).toBe(400);
  });

  it('round-trips a pack through JSON into another pack', async () => {
    await post(`${BASE}/language-pack`, { culture: 'th-TH', title: 'ไทย (ประเทศไทย)' });
    const file = (await download('fr-FR', 'json')).json();
    expect((await post(`${BASE}/import`, { culture: 'th-TH', format: 'json', content: file }, reader)).statusCode).toBe(403);
    const v = await version();
    const res = await post(`${BASE}/import`, { culture: 'th-TH', format: 'json', content: file });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ created: 2, updated: 0, unchanged: 0 });
    expect(await version()).toBe(v + 1);
    expect((await download('th-TH', 'json')).json().texts).toEqual(file.texts);
    // Importing the same file again changes nothing; a changed text is updated.
    expect((await post(`${BASE}/import`, { culture: 'th-TH', format: 'json', content: file })).json()).toEqual({ created: 0, updated: 0, unchanged: 2 });
    file.texts.shell.logout = 'Déconnexion';
    expect((await post(`${BASE}/import`, { culture: 'th-TH', format: 'json', content: JSON.stringify(file) })).json()).toEqual({ created: 0, updated: 1, unchanged: 1 });
    expect((await dictionary('th-TH')).shell.logout).toBe('Déconnexion');
  });

  it('round-trips a pack through Excel; built-in texts stay built-in', async () => {
    const before = (await download('th', 'json')).json();
    const xlsx = await download('th', 'xlsx');
    const adminTexts = async () => (await db().selectFrom('localization_texts').select(['resource_name', 'key', 'value']).where('culture', '=', 'th').orderBy('key').execute());
    const rowsBefore = await adminTexts();
    const res = await importXlsx('th', xlsx.rawPayload);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().created).toBe(0);
    expect(res.json().updated).toBe(0);
    expect(res.json().unchanged).toBeGreaterThan(30);
    expect(await adminTexts()).toEqual(rowsBefore);
    expect((await download('th', 'json')).json()).toEqual(before);
  });

  it('imports an Excel sheet written by a translator, with titles in either language', async () => {
    const content = await workbookOf(
      ['命名空间', '键', '文本', '备注'],
      [['common', 'ok', 'Entendu', 'ignored column'], [], ['custom', 'banner', 'Bienvenue à l’usine', ''], ['custom', 'skipped', '   ', 'empty texts are not translated']],
      '译文',
    );
    expect((await importXlsx('fr-FR', content, reader)).statusCode).toBe(403);
    const res = await importXlsx('fr-FR', content);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ created: 2, updated: 0, unchanged: 0 });
    expect((await dictionary('fr-FR')).custom).toEqual({ banner: 'Bienvenue à l’usine' });
  });

  it('rejects a bad file as a whole, naming every bad entry', async () => {
    const before = await countRows('localization_texts');
    const v = await version();
    const badJson = {
      texts: {
        common: { ok: 'Bien', nested: { deep: 7 }, 'bad key': 'x', 'login.subtitle.more': 'clash with a text' },
        '1bad': { a: 'b' },
        shell: 'not an object',
      },
    };
    const res = await post(`${BASE}/import`, { culture: 'fr-FR', format: 'json', content: badJson });
    expect(res.statusCode).toBe(400);
    const members = res.json().error.validationErrors.map((e: { members: string[] }) => e.members[0]).sort();
    expect(members).toEqual(['1bad:a', 'common:bad key', 'common:login.subtitle.more', 'common:nested.deep', 'shell'].sort());

    for (const content of [null, 'not json', [], { texts: [] }, { other: {} }]) {
      const r = await post(`${BASE}/import`, { culture: 'fr-FR', format: 'json', content });
      expect(r.statusCode, JSON.stringify(content)).toBe(400);
    }
    const dup = await importXlsx('fr-FR', await workbookOf(['Namespace', 'Key', 'Text'], [['common', 'ok', 'A'], ['common', 'ok', 'B'], ['common', '__proto__', 'C']], 'Texts'));
    expect(dup.statusCode).toBe(400);
    expect(dup.json().error.validationErrors.map((e: { members: string[] }) => e.members[0])).toEqual(['#3', '#4']);
    const noColumns = await importXlsx('fr-FR', await workbookOf(['Namespace', 'Text'], [['common', 'A']]));
    expect(noColumns.statusCode).toBe(400);
    expect(refusedMembers(noColumns)).toEqual(['file']);
    const noTexts = await importXlsx('fr-FR', await workbookOf(['Namespace', 'Key', 'Text'], []));
    expect(refusedMembers(noTexts)).toEqual(['file']);
    expect((await importXlsx('es-ES', await workbookOf(['Namespace', 'Key', 'Text'], [['common', 'ok', 'Vale']]))).statusCode).toBe(400);
    expect((await post(`${BASE}/import`, { culture: 'es-ES', format: 'json', content: { texts: { common: { ok: 'Vale' } } } })).statusCode).toBe(400);
    expect((await post(`${BASE}/import`, { culture: 'fr-FR', format: 'csv', content: 'x' })).statusCode).toBe(400);
    // Excel files no longer travel as base64 inside JSON.
    expect((await post(`${BASE}/import`, { culture: 'fr-FR', format: 'xlsx', content: 'UEsDBA==' })).statusCode).toBe(400);
    expect(await countRows('localization_texts')).toBe(before);
    expect(await version()).toBe(v);
  });

  it('refuses what is not a workbook with a 400 naming the file: other bytes, a JSON body, no body', async () => {
    const url = `${BASE}/import-xlsx?culture=fr-FR`;
    for (const res of [
      await importXlsx('fr-FR', 'not a workbook'),
      await importXlsx('fr-FR', Buffer.from('Namespace,Key,Text\ncommon,ok,A\n')),
      await t.call(admin, { method: 'POST', url, payload: { culture: 'fr-FR', format: 'xlsx', content: 'UEsDBA==' } }),
      await t.call(admin, { method: 'POST', url }),
    ]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('ValidationError');
      expect(refusedMembers(res)).toEqual(['file']);
    }
    expect((await importXlsx('fr-FR', 'x', admin, { 'accept-language': 'en-US' })).json().error.message).toBe('The file is not a valid Excel workbook (.xlsx)');
    // The culture is the query string's, checked by its schema.
    const noCulture = await uploadWorkbook(t, admin, `${BASE}/import-xlsx`, await workbookOf(['Namespace', 'Key', 'Text'], [['common', 'ok', 'A']]));
    expect(noCulture.statusCode).toBe(400);
  });

  it('refuses a cell with NUL or a lone surrogate, naming the cell', async () => {
    const res = await importXlsx('fr-FR', await workbookOf(['Namespace', 'Key', 'Text'], [['common', 'ok', 'a_x0000_b']]));
    expect(res.statusCode, res.body).toBe(400);
    expect(refusedMembers(res)).toEqual(['file']);
    expect(res.json().error.message).toContain('C2');
  });

  it('stops reading an Excel file at the first row past the cap and imports nothing', async () => {
    const before = await countRows('localization_texts');
    const res = await importXlsx('fr-FR', await largeWorkbook(['Namespace', 'Key', 'Text'], IMPORT_MAX_TEXTS + 5000, (i) => ['custom', `k${i}`, `texte ${i}`]));
    expect(res.statusCode, res.body).toBe(400);
    expect(refusedMembers(res)).toEqual(['file']);
    // Row 1 is the header: the read ended at the first row past the cap.
    expect(res.json().error.message).toBe(`一次最多导入 ${IMPORT_MAX_TEXTS} 条文本（文件第 ${IMPORT_MAX_TEXTS + 2} 行超出），请分批导入`);
    expect(await countRows('localization_texts')).toBe(before);
  });
});

describe('permissions', () => {
  it('guards every localization route with a Localization code, except the public reads', () => {
    const routes = t.app.routeTable.filter((r) => r.url.startsWith('/api/app/localization') || r.url === '/api/system/i18n/list');
    const publicUrls = [...new Set(routes.filter((r) => r.access?.kind === 'public').map((r) => r.url))].sort();
    expect(publicUrls).toEqual(
      ['/api/app/localization/language-dictionary', '/api/app/localization/language-packs', '/api/app/localization/version', '/api/system/i18n/list'].sort(),
    );
    for (const r of routes.filter((x) => x.access?.kind !== 'public')) {
      expect(r.access, r.url).toMatchObject({ kind: 'permission' });
      expect([P.Localization, P.LocalizationManage]).toContain((r.access as { code: string }).code);
    }
  });
});
