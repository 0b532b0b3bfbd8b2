import { compileFilterPredicate, parseFilterConditions, FILTER_OPERATORS, operatorsForFieldType } from '@tessera/core/filters/index';
import { tableFieldTypeOf } from '@tessera/core/controls/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { control, view } from '../../../test/page-helpers.ts';
import { bd, publishPage } from '../../../test/business-data-fixtures.ts';

// Filter fuzzing: random filter lists — hostile keys, operators, values and brackets included —
// give either validation errors (exactly when the core parser rejects the list) or exactly the
// rows the core JavaScript predicate selects from the same rows. Never a 500.

let t: TestApp;
let admin: string;
let pageId: string;
let viewId: string;
let rows: Record<string, unknown>[];

// A deterministic generator so a failure can be replayed.
let seed = 20261123;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
const chance = (p: number) => rand() < p;

const controls = [
  control('Name', 1001), control('Qty', 1002), control('Price', 1003, { extraProperties: { accuracy: 2 } }),
  control('Day', 1004, { extraProperties: { dateType: 2 } }), control('At', 1004, { extraProperties: { dateType: 3 } }),
  control('Ok', 1005), control('Tags', 1008), control('Ref', 1010), control('Who', 4001),
];
const fields = controls.map((c) => ({ code: c.code, tableFieldType: tableFieldTypeOf(c.controlType) }));
const TEXTS = ['', 'alpha', 'Alpha', 'ALPHA beta', 'b', 'beta%', 'a_b', 'x\\y', "o'hara", '中文', '中', 'zz', ' alpha', '100', '99'];
const randomValue = (code: string): unknown => {
  switch (code) {
    case 'Name': return pick(TEXTS);
    case 'Qty': return pick([0, 1, -1, 2, 10, 99, 100, 12345]);
    case 'Price': return pick([0, 0.5, 1.25, -3.1, 10, 99.99, 100]);
    case 'Day': return pick(['2024-01-01', '2024-03-05', '2024-03-06', '2023-12-31', null]);
    case 'At': return pick(['2024-03-05T00:00:00Z', '2024-03-05T23:30:00+08:00', '2024-03-04T16:00:00Z', null]);
    case 'Ok': return pick([true, false]);
    case 'Tags': return pick([[], ['a'], ['a', 'b'], ['b'], ['中']]);
    case 'Ref': return pick([null, 'r1', 'r2', 'R1', '']);
    case 'Who': return pick([[], [{ id: 'u1', title: 'Ann' }], [{ id: 'u2', title: 'Bo' }]]);
  }
};
// System columns the list filters (CreatorId, CreationTime …) are valid keys; others stay hostile.
const HOSTILE_KEYS = ['"Id"', 'Name; drop table x', '__proto__', 'constructor', 'name', 'IsDeleted', 'ConcurrencyStamp', 'OwnerOrganizationUnitId', '', 'Id', 'Name"--'];
const operandFor = (code: string): unknown => {
  if (chance(0.04)) return pick<unknown>(["' or 1=1 --", '%', '_', null, {}, [], 'NaN', '1e400', true, '2024-13-45', { toString: 'x' }]);
  const v = randomValue(code);
  if (code === 'Who') return JSON.stringify(v);
  if (code === 'Tags') return Array.isArray(v) ? v.join(',') : v;
  if (code === 'At' && chance(0.3)) return pick(['2024-03-05', '2024-03-05T08:00:00+08:00']);
  return v;
};
const randomCondition = () => {
  const field = pick(fields);
  const key = chance(0.04) ? pick(HOSTILE_KEYS) : field.code;
  const operator = chance(0.9) ? pick(operatorsForFieldType(field.tableFieldType)) : pick(FILTER_OPERATORS);
  const op = chance(0.03) ? pick(['like', '===', 99, null, 'drop']) : chance(0.5) ? operator.code : operator.id;
  const entry: Record<string, unknown> = { key, judgmentMethod: op, linkCondition: chance(0.1) ? pick(['xor', 3, '或者']) : pick(['and', 'or', 'AND', '||', undefined]) };
  const arity = FILTER_OPERATORS.find((o) => o.code === op || o.id === op)?.arity;
  if (arity === 'two') entry.value = chance(0.9) ? [operandFor(key), operandFor(key)] : [operandFor(key)];
  else if (arity === 'list') entry.value = chance(0.5) ? [operandFor(key), operandFor(key)] : chance(0.5) ? `${randomValue('Name')},${randomValue('Name')}` : operandFor(key);
  else entry.value = operandFor(key);
  return entry;
};
/** A list of conditions, sometimes with balanced brackets, rarely with broken ones. */
const randomList = () => {
  const list = Array.from({ length: 1 + Math.floor(rand() * 4) }, randomCondition);
  if (list.length > 1 && chance(0.4)) {
    const from = Math.floor(rand() * (list.length - 1));
    const to = from + 1 + Math.floor(rand() * (list.length - from - 1));
    list[from]!.leftBracket = '(';
    list[to]!.rightBracket = ')';
  }
  if (chance(0.05)) list[0]!.leftBracket = pick(['((', 1, 'x']);
  if (chance(0.05)) list[list.length - 1]!.rightBracket = pick(['))', ')(', 2]);
  return list;
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const v = view('Fuzz', controls);
  viewId = v.id;
  pageId = await publishPage(t, admin, 'Fuzz', { viewControls: [v], pageButtons: [], dataLinkages: [] });
  const dataList = Array.from({ length: 60 }, () => Object.fromEntries(controls.map((c) => [c.code, randomValue(c.code)])));
  await bd(t, admin, 'save-view', { pageId, viewId, dataList });
  rows = (await bd(t, admin, 'query-view-data', { pageId, viewId, MaxResultCount: 1000 })).items;
  expect(rows).toHaveLength(60);
}, 120_000);
afterAll(() => t.close());

describe('filter fuzzing (differential against the core predicate)', () => {
  it('2,000 random filter lists: validation errors or exactly the predicate’s rows', async () => {
    let accepted = 0;
    for (let i = 0; i < 2000; i++) {
      const list = randomList();
      const offsetMinutes = pick([0, 480, -300]);
      const res = await t.call(admin, { method: 'POST', url: '/api/app/business-data/query-view-data', payload: { pageId, viewId, filterConditions: list, MaxResultCount: 1000, offsetMinutes } });
      const parsed = parseFilterConditions(list, fields, { now: new Date(), offsetMinutes });
      if (!parsed.ok) {
        expect(res.statusCode, `${JSON.stringify(list)} → ${res.body}`).toBe(400);
        expect(res.json().error.validationErrors.length).toBeGreaterThan(0);
        continue;
      }
      expect(res.statusCode, `${JSON.stringify(list)} → ${res.body}`).toBe(200);
      const predicate = compileFilterPredicate(parsed.tree, { offsetMinutes });
      const expected = rows.filter(predicate).map((r) => r.Id).sort();
      const got = res.json().items.map((r: { Id: string }) => r.Id).sort();
      expect(got, `${JSON.stringify(list)} offset ${offsetMinutes}`).toEqual(expected);
      accepted++;
    }
    // The generator must exercise the SQL path, not only the validator.
    expect(accepted).toBeGreaterThan(600);
  }, 600_000);
});

describe('system columns in the list', () => {
  it('are filtered by who and when, and the answer names the users', async () => {
    const me = String(rows[0]!.CreatorId);
    expect(me).toMatch(/^[0-9a-f-]{36}$/);
    const list = async (filterConditions: object[]) => bd(t, admin, 'query-view-data', { pageId, viewId, MaxResultCount: 1000, filterConditions, namesOfUsers: true });
    const mine = await list([{ key: 'CreatorId', judgmentMethod: 'eq', value: me }]);
    expect(mine.totalCount).toBe(60);
    expect(mine.labels.CreatorId[me]).toBeTruthy();
    expect((await list([{ key: 'LastModifierId', judgmentMethod: 'eq', value: '00000000-0000-0000-0000-000000000000' }])).totalCount).toBe(0);
    // A creator's id as text (contains) and a time range: no 500, the rows that match.
    expect((await list([{ key: 'CreatorId', judgmentMethod: 'contains', value: me.slice(0, 8) }])).totalCount).toBe(60);
    const created = String(rows[0]!.CreationTime);
    const day = (offset: number) => new Date(Date.parse(created) + offset * 86_400_000).toISOString();
    expect((await list([{ key: 'CreationTime', judgmentMethod: 'between', value: [day(-1), day(1)] }])).totalCount).toBe(60);
    expect((await list([{ key: 'CreationTime', judgmentMethod: 'gt', value: day(1) }])).totalCount).toBe(0);
    // Names only when asked for (the list asks while a user column is shown).
    expect((await bd(t, admin, 'query-view-data', { pageId, viewId })).labels.CreatorId).toBeUndefined();
    // Sorted by them too.
    await bd(t, admin, 'query-view-data', { pageId, viewId, Sorting: 'CreationTime desc, LastModificationTime asc' });
  });
});
