import { P } from '@tessera/core/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { listDictionaryOptions } from './dictionaries.service.ts';
import { registerDictionaryUsageResolver } from './dictionary-usage.ts';

let t: TestApp;
let admin: string;
const URL = '/api/app/business-dictionary';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(() => t.close());

const db = () => t.database.db;
const label = (zh: string, en = zh) => ({ 'zh-CN': zh, 'en-US': en });
const create = async (body: object, token = admin) => {
  const res = await t.call(token, { method: 'POST', url: URL, payload: body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const get = async (id: string, token = admin) => (await t.call(token, { method: 'GET', url: `${URL}/${id}` })).json();
const put = (id: string, body: object, token = admin) => t.call(token, { method: 'PUT', url: `${URL}/${id}`, payload: body });
const options = async (query: string, lang = 'zh-CN', token = admin) =>
  (await t.call(token, { method: 'GET', url: `${URL}/options?${query}`, headers: { 'accept-language': lang } })).json();
const codes = (items: { code: string }[]) => items.map((i) => i.code);

describe('business dictionaries', () => {
  let colours: { id: string; concurrencyStamp: string; items: { id: string; code: string }[] };
  let regions: { id: string; items: { id: string; code: string; parentCode: string | null }[] };

  it('creates a dictionary with items in order, colours and multilingual labels', async () => {
    colours = await create({
      code: 'Colour',
      title: label('颜色', 'Colour'),
      description: 'Product colours',
      items: [
        { code: 'red', label: label('红', 'Red'), color: 'red' },
        { code: 'green', label: label('绿', 'Green'), color: '#52c41a' },
        { code: 'blue', label: { 'zh-CN': '蓝', 'en-US': 'Blue', 'vi': 'Xanh' } },
      ],
    });
    expect(colours).toMatchObject({ code: 'Colour', title: label('颜色', 'Colour'), isTree: false, itemCount: 3, enabledItemCount: 3 });
    expect(colours.items).toMatchObject([
      { code: 'red', order: 0, isEnabled: true, color: 'red', parentCode: null },
      { code: 'green', order: 1, color: '#52c41a' },
      { code: 'blue', order: 2, color: null, label: { vi: 'Xanh' } },
    ]);
    regions = await create({
      code: 'Region',
      title: label('地区', 'Region'),
      isTree: true,
      // A child may come before its parent in the submitted list; the stored order walks the tree.
      items: [
        { code: 'hz', label: label('杭州', 'Hangzhou'), parentCode: 'zj' },
        { code: 'zj', label: label('浙江', 'Zhejiang') },
        { code: 'js', label: label('江苏', 'Jiangsu') },
        { code: 'nj', label: label('南京', 'Nanjing'), parentCode: 'js' },
        { code: 'xh', label: label('西湖区', 'Xihu'), parentCode: 'hz' },
      ],
    });
    expect(regions.items.map((i) => [i.code, i.parentCode])).toEqual([
      ['zj', null],
      ['hz', 'zj'],
      ['xh', 'hz'],
      ['js', null],
      ['nj', 'js'],
    ]);
  });

  it('lists with search, filters and paging for every signed-in user', async () => {
    await createUser(db(), 'reader');
    const reader = await t.login('reader', FIXTURE_PASSWORD);
    const all = (await t.call(reader, { method: 'GET', url: URL })).json();
    expect(all.totalCount).toBe(2);
    expect(all.items[0]).toMatchObject({ code: 'Region', itemCount: 5 });
    expect(all.items[0].items).toBeUndefined();
    const byTitle = (await t.call(reader, { method: 'GET', url: `${URL}?Filter=${encodeURIComponent('地区')}` })).json();
    expect(codes(byTitle.items)).toEqual(['Region']);
    const byEnglish = (await t.call(reader, { method: 'GET', url: `${URL}?Filter=colour` })).json();
    expect(codes(byEnglish.items)).toEqual(['Colour']);
    expect((await t.call(reader, { method: 'GET', url: `${URL}?Filter=${encodeURIComponent('%')}` })).json().totalCount).toBe(0);
    expect(codes((await t.call(reader, { method: 'GET', url: `${URL}?IsTree=false` })).json().items)).toEqual(['Colour']);
    const page = (await t.call(reader, { method: 'GET', url: `${URL}?Sorting=code asc&SkipCount=1&MaxResultCount=1` })).json();
    expect(page).toMatchObject({ totalCount: 2, items: [{ code: 'Region' }] });
    expect((await t.call(reader, { method: 'GET', url: `${URL}/${colours.id}` })).statusCode).toBe(200);
    expect((await t.call(null, { method: 'GET', url: URL })).statusCode).toBe(401);
  });

  it('rejects bad input before writing anything', async () => {
    const before = await db().selectFrom('dictionary_items').select('id').execute();
    const bad: object[] = [
      {},
      { code: '1abc', title: label('x') },
      { code: 'X', title: {} },
      { code: 'X', title: label('x'), items: [{ code: 'has space', label: label('a') }] },
      { code: 'X', title: label('x'), items: [{ code: 'a,b', label: label('a') }] },
      { code: 'X', title: label('x'), items: [{ code: 'a', label: {} }] },
      { code: 'X', title: label('x'), items: [{ code: 'a', label: label('a'), color: 'url(javascript:1)' }] },
      { code: 'X', title: label('x'), items: [{ code: 'a', label: label('a') }, { code: 'a', label: label('b') }] },
      { code: 'X', title: label('x'), items: [{ code: 'a', label: label('a'), parentCode: 'b' }, { code: 'b', label: label('b') }] },
      { code: 'X', title: label('x'), isTree: true, items: [{ code: 'a', label: label('a'), parentCode: 'zz' }] },
      { code: 'X', title: label('x'), isTree: true, items: [{ code: 'a', label: label('a'), parentCode: 'b' }, { code: 'b', label: label('b'), parentCode: 'a' }] },
      { code: 'X', title: label('x'), isTree: true, items: [{ code: 'a', label: label('a'), parentCode: 'a' }] },
      { code: 'colour', title: label('x') },
    ];
    for (const body of bad) {
      const res = await t.call(admin, { method: 'POST', url: URL, payload: body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.validationErrors.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    const cycle = await t.call(admin, {
      method: 'POST',
      url: URL,
      payload: { code: 'X', title: label('x'), isTree: true, items: [{ code: 'a', label: label('a'), parentCode: 'b' }, { code: 'b', label: label('b'), parentCode: 'a' }] },
    });
    expect(cycle.json().error.validationErrors.map((v: { members: string[] }) => v.members[0])).toEqual(['items.0.parentCode', 'items.1.parentCode']);
    const taken = await t.call(admin, { method: 'POST', url: URL, payload: { code: 'colour', title: label('x') }, headers: { 'accept-language': 'en-US' } });
    expect(taken.json().error.message).toBe('The dictionary code "colour" is already taken');
    expect(await db().selectFrom('dictionary_items').select('id').execute()).toHaveLength(before.length);
    expect((await t.call(admin, { method: 'GET', url: URL })).json().totalCount).toBe(2);
  });

  it('saves reorders, label changes and new items; item codes never change', async () => {
    const [red, green, blue] = colours.items;
    const res = await put(colours.id, {
      code: 'Colour',
      title: label('颜色', 'Colour'),
      concurrencyStamp: colours.concurrencyStamp,
      items: [
        { id: blue!.id, code: 'blue', label: label('蔚蓝', 'Azure') },
        { id: red!.id, code: 'red', label: label('红', 'Red'), color: 'volcano' },
        { code: 'black', label: label('黑', 'Black') },
        { id: green!.id, code: 'green', label: label('绿', 'Green'), isEnabled: false },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json();
    expect(saved.items.map((i: { code: string; order: number }) => [i.code, i.order])).toEqual([
      ['blue', 0],
      ['red', 1],
      ['black', 2],
      ['green', 3],
    ]);
    // Same ids: the rows are updated, not replaced.
    expect(saved.items[0]).toMatchObject({ id: blue!.id, label: label('蔚蓝', 'Azure') });
    expect(saved.items[3]).toMatchObject({ id: green!.id, isEnabled: false });
    expect(saved).toMatchObject({ itemCount: 4, enabledItemCount: 3 });

    const renamed = await put(colours.id, { code: 'Colour', title: label('颜色'), items: [{ id: red!.id, code: 'crimson', label: label('红') }] });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().error.validationErrors[0].members).toEqual(['items.0.code']);
    const unknown = await put(colours.id, { code: 'Colour', title: label('颜色'), items: [{ id: regions.items[0]!.id, code: 'zj', label: label('x') }] });
    expect(unknown.statusCode).toBe(400);
    const stale = await put(colours.id, { code: 'Colour', title: label('颜色'), concurrencyStamp: colours.concurrencyStamp, items: [] });
    expect(stale.statusCode).toBe(409);
    expect((await get(colours.id)).items).toHaveLength(4);
    expect((await put('0190a0a0-0000-7000-8000-000000000000', { code: 'Z', title: label('z') })).statusCode).toBe(404);

    // An item sent without its id is matched by code (it keeps its id); one left out is removed.
    const black = saved.items[2];
    const matched = await put(colours.id, {
      code: 'Colour',
      title: label('颜色', 'Colour'),
      items: saved.items.filter((i: { code: string }) => i.code !== 'red').map(({ id: _id, ...rest }: { id: string }) => rest),
    });
    expect(matched.json().items.map((i: { code: string }) => i.code)).toEqual(['blue', 'black', 'green']);
    expect(matched.json().items[1].id).toBe(black.id);
    // Re-parenting inside a tree keeps the depth-first order.
    const moved = await put(regions.id, {
      code: 'Region',
      title: label('地区', 'Region'),
      items: regions.items.map((i) => (i.code === 'hz' ? { ...i, parentCode: 'js' } : i)),
    });
    expect(moved.json().items.map((i: { code: string }) => i.code)).toEqual(['zj', 'js', 'hz', 'xh', 'nj']);
    // A flat dictionary cannot hold a tree.
    const flat = await put(regions.id, { code: 'Region', title: label('地区'), isTree: false, items: moved.json().items });
    expect(flat.statusCode).toBe(400);
  });

  it('hides disabled items (and their subtrees) from pickers but keeps them readable', async () => {
    const zh = await options('dictionaryCode=Colour');
    expect(zh.items).toEqual([
      { value: 'blue', label: '蔚蓝', parentValue: null, color: null, isEnabled: true },
      { value: 'black', label: '黑', parentValue: null, color: null, isEnabled: true },
    ]);
    const en = await options('dictionaryCode=colour&includeDisabled=true', 'en-US,en;q=0.9');
    expect(en.items.map((o: { label: string; isEnabled: boolean }) => [o.label, o.isEnabled])).toEqual([
      ['Azure', true],
      ['Black', true],
      ['Green', false],
    ]);
    // Disabling a parent hides its children from pickers too.
    const region = await get(regions.id);
    await put(regions.id, {
      code: 'Region',
      title: region.title,
      items: region.items.map((i: { code: string }) => (i.code === 'js' ? { ...i, isEnabled: false } : i)),
    });
    expect((await options('dictionaryCode=Region')).items.map((o: { value: string }) => o.value)).toEqual(['zj']);
    const withDisabled = await options('dictionaryCode=Region&includeDisabled=true');
    expect(withDisabled.items.map((o: { value: string; isEnabled: boolean; parentValue: string | null }) => [o.value, o.parentValue, o.isEnabled])).toEqual([
      ['zj', null, true],
      ['js', null, false],
      ['hz', 'js', false],
      ['xh', 'hz', false],
      ['nj', 'js', false],
    ]);
    // The service other modules call, and system dictionaries through the same path.
    expect((await listDictionaryOptions(db(), 'Colour', 'en-US')).map((o) => o.label)).toEqual(['Azure', 'Black']);
    expect((await listDictionaryOptions(db(), 'TimeUnit', 'zh-CN')).map((o) => o.label)).toEqual(['秒', '分钟', '小时', '天']);
    const missing = await t.call(admin, { method: 'GET', url: `${URL}/options?dictionaryCode=Nope` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('DictionaryNotFound');
  });

  it('refuses to delete or re-code a dictionary a published page uses, naming the pages', async () => {
    const unregister = registerDictionaryUsageResolver(async (_db, dictionary) => (dictionary.id === colours.id ? ['采购订单', '销售订单'] : []));
    const another = registerDictionaryUsageResolver(async (_db, dictionary) => (dictionary.id === colours.id ? ['销售订单', '库存台账'] : []));
    try {
      const refused = await t.call(admin, { method: 'DELETE', url: `${URL}/${colours.id}` });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toMatchObject({ code: 'DictionaryInUse', details: { pages: ['采购订单', '销售订单', '库存台账'] } });
      expect(refused.json().error.message).toBe('字典正被以下已发布页面使用，不能删除：采购订单、销售订单、库存台账');
      const en = await t.call(admin, { method: 'DELETE', url: `${URL}/${colours.id}`, headers: { 'accept-language': 'en-US' } });
      expect(en.json().error.message).toContain('采购订单');
      const recode = await put(colours.id, { code: 'Colours', title: label('颜色'), items: (await get(colours.id)).items });
      expect(recode.statusCode).toBe(400);
      expect(recode.json().error.code).toBe('DictionaryInUse');
      // Labels may still change while in use.
      expect((await put(colours.id, { code: 'Colour', title: label('颜色（新）'), items: (await get(colours.id)).items })).statusCode).toBe(200);
      expect((await get(colours.id)).code).toBe('Colour');
    } finally {
      unregister();
      another();
    }
    expect((await t.call(admin, { method: 'DELETE', url: `${URL}/${colours.id}` })).statusCode).toBe(204);
    expect((await t.call(admin, { method: 'GET', url: `${URL}/${colours.id}` })).statusCode).toBe(404);
    expect(await db().selectFrom('dictionary_items').select('id').where('dictionary_id', '=', colours.id).execute()).toEqual([]);
    expect((await t.call(admin, { method: 'DELETE', url: `${URL}/${colours.id}` })).statusCode).toBe(404);
    const audit = await db().selectFrom('audit_logs').select('action').where('entity_type', '=', 'Dictionary').where('entity_id', '=', colours.id).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['Created', 'Deleted', 'Updated', 'Updated', 'Updated'].sort());
  });

  it('guards writes with the dictionary permissions', async () => {
    const editors = await createRole(db(), 'dictionary-editors');
    await createUser(db(), 'editor', { roles: [editors] });
    const editor = await t.login('editor', FIXTURE_PASSWORD);
    const body = { code: 'Size', title: label('尺码', 'Size'), items: [{ code: 'S', label: label('小', 'Small') }] };
    expect((await t.call(editor, { method: 'POST', url: URL, payload: body })).statusCode).toBe(403);
    await grant(db(), 'R', editors, [P.DictionariesCreate]);
    t.app.authCache.invalidateAccess();
    const size = await create(body, editor);
    expect((await put(size.id, body, editor)).statusCode).toBe(403);
    expect((await t.call(editor, { method: 'DELETE', url: `${URL}/${size.id}` })).statusCode).toBe(403);
    expect((await t.call(editor, { method: 'GET', url: `${URL}/${size.id}/export` })).statusCode).toBe(403);
    await grant(db(), 'R', editors, [P.DictionariesUpdate, P.DictionariesDelete]);
    t.app.authCache.invalidateAccess();
    expect((await put(size.id, body, editor)).statusCode).toBe(200);
    expect((await t.call(editor, { method: 'DELETE', url: `${URL}/${size.id}` })).statusCode).toBe(204);
  });
});

describe('system dictionaries', () => {
  it('lists the built-in dictionaries read-only', async () => {
    const list = (await t.call(admin, { method: 'GET', url: '/api/app/sys-dictionaries' })).json();
    expect(list.totalCount).toBeGreaterThanOrEqual(6);
    expect(codes(list.items)).toEqual(expect.arrayContaining(['Gender', 'YesNo', 'TimeUnit', 'HttpMethod', 'AggregateFunction']));
    const units = (await t.call(admin, { method: 'GET', url: '/api/app/sys-dictionaries/TimeUnit' })).json();
    expect(codes(units.items)).toEqual(['second', 'minute', 'hour', 'day']);
    const methods = (await t.call(admin, { method: 'GET', url: '/api/app/sys-dictionaries/httpmethod' })).json();
    expect(codes(methods.items)).toEqual(['get', 'post', 'patch', 'put', 'delete']);
    const aggregates = (await t.call(admin, { method: 'GET', url: '/api/app/sys-dictionaries/AggregateFunction' })).json();
    expect(codes(aggregates.items)).toEqual(['SUM', 'COUNT', 'MAX', 'MIN']);
    const filtered = (await t.call(admin, { method: 'GET', url: `/api/app/sys-dictionaries?Filter=${encodeURIComponent('性别')}` })).json();
    expect(codes(filtered.items)).toEqual(['Gender']);
    const paged = (await t.call(admin, { method: 'GET', url: '/api/app/sys-dictionaries?SkipCount=1&MaxResultCount=2' })).json();
    expect(paged.items).toHaveLength(2);
    expect(paged.totalCount).toBe(list.totalCount);
    expect((await t.call(admin, { method: 'GET', url: '/api/app/sys-dictionaries/Nope' })).statusCode).toBe(404);
    expect((await t.call(null, { method: 'GET', url: '/api/app/sys-dictionaries' })).statusCode).toBe(401);
    expect((await t.call(admin, { method: 'POST', url: '/api/app/sys-dictionaries', payload: {} })).statusCode).toBe(404);
  });
});
