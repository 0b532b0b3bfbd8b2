import { compileFilterPredicate, FILTER_OPERATORS, operatorsForFieldType, parseFilterConditions, type FilterGroupNode } from '@tessera/core/filters/index';
import type { TableFieldType } from '@tessera/core/page-definition';
import fc from 'fast-check';
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { compileFilter, type FilterColumn } from './filter-compiler.ts';

// Differential test: the same filter (flat condition list → core tree) evaluated by the core
// JavaScript predicate over rows read back from the database, and compiled to SQL by
// compileFilter and run by the database, must select the same rows. Runs on PGlite, and on
// PostgreSQL when DATABASE_URL is set. Keys, column names and values include hostile text.

let t: TestApp;
let db: Kysely<unknown>;

const HOSTILE_COLUMN = `x"; drop table filter_diff; --`;
const allowList: FilterColumn[] = [
  { code: 'name', tableFieldType: 1 },
  { code: 'qty', tableFieldType: 2 },
  { code: 'price', tableFieldType: 3 },
  { code: 'orderDate', tableFieldType: 4 },
  { code: 'paid', tableFieldType: 5 },
  { code: 'ref', tableFieldType: 6 },
  // Hostile allow-list entries: codes that are prototype names, physical names that need quoting.
  { code: 'constructor', tableFieldType: 1, column: HOSTILE_COLUMN },
  { code: '__proto__', tableFieldType: 2, column: 'toString' },
];
const codes = allowList.map((c) => c.code);
const typeOf = new Map(allowList.map((c) => [c.code, c.tableFieldType]));
const NOW = new Date('2024-03-05T12:00:00Z');

const HOSTILE_TEXT = [
  "'", "''", '"', '\\', '%', '_', '%_\\', "'; drop table filter_diff; --", "' or '1'='1", '$1', '?', ':name',
  '${x}', '*/ select 1 /*', 'constructor', '__proto__', 'toString', 'null', 'NULL', 'true', '[]', '{}',
];
const TEXTS = [
  '', ' ', 'a', 'A', 'ab', 'Ab', 'abc', 'b', 'B', 'Zebra', 'apple pie', 'Apple', 'Äpfel', 'äpfel', 'ÄPFEL', 'ΣΑΣ', 'σας', 'σασ',
  'Straße', 'STRASSE', 'é', 'É', '苹果', '苹果汁', '香蕉', '😀', '😀a', '\uE000', '\uFFFD', 'a\nb', 'tab\t', ...HOSTILE_TEXT,
];
const TEXT_CHARS = ['a', 'A', 'b', 'Ä', 'ä', 'Σ', 'σ', 'ς', '苹', '果', '😀', '\uE000', '%', '_', '\\', "'", '"', ' ', '-', ';'];
const UUIDS = ['00000000-0000-0000-0000-000000000000', '3f2504e0-4f89-11d3-9a0c-0305e82c3301', 'a1b2c3d4-e5f6-4711-8899-aabbccddeeff'];
const PRICES = [0, 0.1, 0.2, 0.30000000000000004, 0.3, -1.5, 12.5, 12.51, 1e-7, 123456.789, 99999999.99];
const MIN_DATE = new Date('2023-12-25T00:00:00Z');
const MAX_DATE = new Date('2024-04-10T00:00:00Z');

const textArb = fc.oneof(fc.constantFrom(...TEXTS), fc.string({ unit: fc.constantFrom(...TEXT_CHARS), maxLength: 6 }));
const intArb = fc.oneof(fc.integer({ min: -5, max: 20 }), fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 0));
const priceArb = fc.oneof(fc.constantFrom(...PRICES), fc.double({ min: -1000, max: 1000, noNaN: true, noDefaultInfinity: true }));
const dateArb = fc.oneof(
  fc.date({ min: MIN_DATE, max: MAX_DATE, noInvalidDate: true }),
  // Exactly on day boundaries in UTC and UTC+8, where date-only comparisons flip.
  fc.integer({ min: 0, max: 100 }).map((d) => new Date(Date.UTC(2023, 11, 26 + d) - (d % 2 ? 8 * 3_600_000 : 0))),
);

const rowArb = fc.record({
  name: fc.option(textArb, { nil: null }),
  qty: fc.option(intArb, { nil: null }),
  price: fc.option(priceArb, { nil: null }),
  orderDate: fc.option(dateArb, { nil: null }),
  paid: fc.option(fc.boolean(), { nil: null }),
  ref: fc.option(fc.constantFrom(...UUIDS), { nil: null }),
  constructor: fc.option(textArb, { nil: null }),
  proto: fc.option(intArb, { nil: null }),
});

/** Rows as read from the database, keyed by allow-list code (what the browser would hold). */
let rows: Record<string, unknown>[] = [];

type RowValue = typeof rowArb extends fc.Arbitrary<infer R> ? R : never;

async function loadRows(values: RowValue[]) {
  await sql`delete from filter_diff`.execute(db);
  for (let i = 0; i < values.length; i += 100) {
    const chunk = values.slice(i, i + 100);
    const tuples = chunk.map((r, j) =>
      sql`(${`r${i + j}`}, ${r.name}, ${r.qty === null ? null : String(r.qty)}::bigint, ${r.price === null ? null : String(r.price)}::numeric,
        ${r.orderDate?.toISOString() ?? null}::timestamptz, ${r.paid}::boolean, ${r.ref}::uuid, ${r.constructor}, ${r.proto === null ? null : String(r.proto)}::bigint)`,
    );
    await sql`insert into filter_diff ("Id", name, qty, price, "orderDate", paid, ref, ${sql.id(HOSTILE_COLUMN)}, "toString") values ${sql.join(tuples)}`.execute(db);
  }
  const read = await sql<Record<string, unknown>>`select * from filter_diff order by "Id"`.execute(db);
  rows = read.rows.map((r) => {
    const row: Record<string, unknown> = Object.create(null);
    for (const c of allowList) row[c.code] = r[c.column ?? c.code];
    row.Id = r.Id;
    return row;
  });
}

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db as unknown as Kysely<unknown>;
  await sql`create table filter_diff (
    "Id" text primary key, name text, qty bigint, price numeric, "orderDate" timestamptz, paid boolean, ref uuid,
    ${sql.id(HOSTILE_COLUMN)} text, "toString" bigint)`.execute(db);
  const edge = {
    name: null, qty: null, price: null, orderDate: null, paid: null, ref: null, constructor: null, proto: null,
  };
  const sampled = fc.sample(rowArb, { numRuns: 150, seed: 20261123 });
  await loadRows([edge, { ...edge, name: '', constructor: '' }, ...sampled]);
});

afterAll(async () => {
  await t?.close();
});

const valueFor = (type: TableFieldType, offset: number): fc.Arbitrary<unknown> => {
  switch (type) {
    case 1:
    case 6:
      return type === 6 ? fc.oneof(fc.constantFrom(...UUIDS), textArb) : textArb;
    case 2:
      return fc.oneof({ weight: 6, arbitrary: intArb }, { weight: 3, arbitrary: intArb.map(String) }, { weight: 1, arbitrary: fc.constantFrom('1.5', 'abc', '1; drop table filter_diff', '1e3') });
    case 3:
      return fc.oneof({ weight: 6, arbitrary: priceArb }, { weight: 3, arbitrary: priceArb.map(String) }, { weight: 1, arbitrary: fc.constantFrom('NaN', 'Infinity', '0x10', '') });
    case 4:
      return fc.oneof(
        { weight: 3, arbitrary: dateArb.map((d) => d.toISOString()) },
        { weight: 3, arbitrary: dateArb.map((d) => new Date(d.getTime() + offset * 60_000).toISOString().slice(0, 10)) }, // date-only, user zone
        { weight: 3, arbitrary: dateArb.map((d) => new Date(d.getTime() + 8 * 3_600_000).toISOString().slice(0, 19) + '+08:00') },
        { weight: 1, arbitrary: fc.constantFrom('2024-13-01', '05/03/2024', "2024-03-05'; drop table filter_diff; --", 'now') },
      );
    case 5:
      return fc.constantFrom(true, false, 'true', 'false', 1, 0, 'yes');
  }
};

const conditionArb = (offset: number) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...codes) },
    { weight: 1, arbitrary: fc.constantFrom('Id', 'name; drop table filter_diff', 'toString', 'hasOwnProperty', '"name"', '') },
  ).chain((key) => {
    const type = typeOf.get(key) ?? 1;
    const ops = operatorsForFieldType(type).map((o) => o.code);
    const anyOp = FILTER_OPERATORS.map((o) => o.code);
    const opArb = fc.oneof({ weight: 10, arbitrary: fc.constantFrom(...ops) }, { weight: 1, arbitrary: fc.constantFrom<string | number>(...anyOp, 99, '=', 'like', 'drop') });
    return opArb.chain((judgmentMethod) => {
      const arity = FILTER_OPERATORS.find((o) => o.code === judgmentMethod)?.arity ?? 'one';
      const one = valueFor(type, offset);
      const list = fc.array(one, { minLength: 1, maxLength: 4 });
      const pair = fc.tuple(one, one);
      const value =
        arity === 'list' ? fc.oneof({ weight: 8, arbitrary: list }, { weight: 1, arbitrary: one })
        : arity === 'two' ? fc.oneof({ weight: 8, arbitrary: pair }, { weight: 1, arbitrary: list })
        : fc.oneof({ weight: 8, arbitrary: one }, { weight: 1, arbitrary: pair });
      return fc.record({
        key: fc.constant(key),
        judgmentMethod: fc.constant(judgmentMethod),
        value,
        leftBracket: fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 2, arbitrary: fc.constant('(') }, { weight: 1, arbitrary: fc.constant('((') }),
        rightBracket: fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 2, arbitrary: fc.constant(')') }, { weight: 1, arbitrary: fc.constant('))') }),
        linkCondition: fc.constantFrom('and', 'or', 'AND', 'OR', ''),
      });
    });
  });

/** Drops brackets so that most generated lists are balanced (the rest test the error path). */
function balance(list: { leftBracket: string; rightBracket: string }[], keep: boolean) {
  if (keep) return list;
  let open = 0;
  return list.map((c, i) => {
    open += c.leftBracket.length;
    let right = Math.min(c.rightBracket.length, open);
    if (i === list.length - 1) right = open;
    open -= right;
    return { ...c, rightBracket: ')'.repeat(right) };
  });
}

const filterArb = fc
  .constantFrom(0, 480, -300)
  .chain((offset) => fc.tuple(fc.constant(offset), fc.array(conditionArb(offset), { maxLength: 6 }), fc.boolean()));

async function sqlIds(where: Expression<SqlBool>) {
  const result = await sql<{ Id: string }>`select "Id" from filter_diff where ${where} order by "Id"`.execute(db);
  return result.rows.map((r) => r.Id);
}

describe('compileFilter: differential against the core predicate', () => {
  it('selects exactly the rows the JavaScript predicate selects, for random (and hostile) filters', async () => {
    let compared = 0;
    let nonTrivial = 0;
    await fc.assert(
      fc.asyncProperty(filterArb, async ([offset, raw, unbalanced]) => {
        const list = balance(raw, unbalanced && raw.length % 3 === 0);
        const options = { now: NOW, offsetMinutes: offset };
        const core = parseFilterConditions(list, allowList, options);
        const compiled = compileFilter(list, allowList, options);
        if (!core.ok) {
          // Same validation messages, no exception, nothing run.
          expect(compiled.ok).toBe(false);
          if (!compiled.ok) expect(compiled.errors).toEqual(core.errors);
          return;
        }
        expect(compiled.ok).toBe(true);
        if (!compiled.ok) return;
        const predicate = compileFilterPredicate(core.tree);
        const expected = rows.filter(predicate).map((r) => r.Id as string);
        const actual = await sqlIds(compiled.where);
        expect(actual).toEqual(expected);
        compared++;
        if (expected.length > 0 && expected.length < rows.length) nonTrivial++;
      }),
      { numRuns: 400, seed: Number(process.env.FILTER_DIFF_SEED ?? 4242) },
    );
    // The generator must exercise the comparison, not only the error path.
    expect(compared).toBeGreaterThan(150);
    expect(nonTrivial).toBeGreaterThan(80);
  });

  it('also agrees for every operator on each field, one condition at a time', async () => {
    for (const col of allowList) {
      for (const op of operatorsForFieldType(col.tableFieldType)) {
        const samples = fc.sample(valueFor(col.tableFieldType, 0), { numRuns: 12, seed: op.id * 31 + col.tableFieldType });
        for (const sample of samples) {
          const value = op.arity === 'two' ? [sample, samples[(samples.indexOf(sample) + 5) % samples.length]] : op.arity === 'list' ? [sample, samples[0]] : sample;
          const list = [{ key: col.code, judgmentMethod: op.code, value }];
          const core = parseFilterConditions(list, allowList, { now: NOW });
          const compiled = compileFilter(list, allowList, { now: NOW });
          expect(compiled.ok).toBe(core.ok);
          if (!core.ok || !compiled.ok) continue;
          const expected = rows.filter(compileFilterPredicate(core.tree)).map((r) => r.Id as string);
          expect(await sqlIds(compiled.where), `${col.code} ${op.code} ${JSON.stringify(value)}`).toEqual(expected);
        }
      }
    }
  });

  it('agrees when the rows change too (fresh random tables)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { minLength: 1, maxLength: 25 }), fc.array(filterArb, { minLength: 5, maxLength: 5 }), async (table, filters) => {
        await loadRows(table);
        for (const [offset, list] of filters) {
          const options = { now: NOW, offsetMinutes: offset };
          const core = parseFilterConditions(balance(list, false), allowList, options);
          const compiled = compileFilter(balance(list, false), allowList, options);
          expect(compiled.ok).toBe(core.ok);
          if (!core.ok || !compiled.ok) continue;
          expect(await sqlIds(compiled.where)).toEqual(rows.filter(compileFilterPredicate(core.tree)).map((r) => r.Id as string));
        }
      }),
      { numRuns: 15, seed: 777 },
    );
  });
});

describe('compileFilter: safety and validation', () => {
  const compile = (input: unknown, list = allowList) => compileFilter(input, list, { now: NOW });
  const text = (where: Expression<SqlBool>) => sql`select 1 where ${where}`.compile(db);

  it('binds every value and quotes only allow-listed identifiers', () => {
    const evil = "'; drop table filter_diff; --";
    const r = compile([
      { key: 'name', judgmentMethod: 'eq', value: evil },
      { key: 'constructor', judgmentMethod: 'contains', value: '100%_\\', linkCondition: 'or' },
      { key: 'qty', judgmentMethod: 'in', value: [1, 2, 3] },
    ]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const compiled = text(r.where);
    expect(compiled.sql).not.toContain(evil);
    expect(compiled.sql).not.toContain('100%');
    expect(compiled.sql).toContain('"x""; drop table filter_diff; --"'); // the hostile column, quoted
    expect(compiled.parameters).toEqual([evil, '%100\\%\\_\\\\%', 1, 2, 3]);
    expect(compiled.sql).toMatch(/ilike \$2 escape '\\'/);
  });

  it('qualifies columns with a table alias', () => {
    const r = compileFilter([{ key: 'qty', judgmentMethod: 'gt', value: 3 }], allowList, { table: 't' });
    expect(r.ok && text(r.where).sql).toContain('"t"."qty" > cast($1 as bigint)');
  });

  it('filters on a server-built expression instead of a column', async () => {
    const derived: FilterColumn[] = [{ code: 'qtyPlusOne', tableFieldType: 2, expression: sql`"qty" + 1` }];
    const list = [{ key: 'qtyPlusOne', judgmentMethod: 'between', value: [2, 6] }, { key: 'qtyPlusOne', judgmentMethod: 'isEmpty', linkCondition: 'or' }];
    const r = compileFilter(list, derived);
    const core = parseFilterConditions(list, derived);
    expect(r.ok && core.ok).toBe(true);
    if (!r.ok || !core.ok) return;
    expect(text(r.where).sql).toContain('("qty" + 1) between cast($1 as bigint) and cast($2 as bigint)');
    const p = compileFilterPredicate(core.tree);
    const expected = rows.filter((row) => p({ qtyPlusOne: row.qty === null ? null : Number(row.qty) + 1 })).map((row) => row.Id);
    expect(expected.length).toBeGreaterThan(0);
    expect(await sqlIds(r.where)).toEqual(expected);
  });

  it('an empty or missing list matches every row', async () => {
    for (const input of [[], null, undefined, { kind: 'group', link: 'or', children: [] }]) {
      const r = compile(input);
      expect(r.ok).toBe(true);
      if (r.ok) expect(await sqlIds(r.where)).toHaveLength(rows.length);
    }
  });

  it.each([
    [[{ key: 'secret', judgmentMethod: 'eq', value: 1 }], 'Unknown field "secret"', 'filterConditions[0].key'],
    [[{ key: 'Id', judgmentMethod: 'eq', value: 'r1' }], 'Unknown field "Id"', 'filterConditions[0].key'],
    [[{ key: 'hasOwnProperty', judgmentMethod: 'eq', value: 1 }], 'Unknown field "hasOwnProperty"', 'filterConditions[0].key'],
    [[{ key: 'paid', judgmentMethod: 'contains', value: 'x' }], 'Operator "contains" cannot be used with field "paid"', 'filterConditions[0].judgmentMethod'],
    [[{ key: 'qty', judgmentMethod: 'eq', value: '1; drop table x' }], 'Expected a number', 'filterConditions[0].value'],
    [[{ key: 'orderDate', judgmentMethod: 'eq', value: "2024-01-01' or 1=1" }], 'Invalid ISO 8601 date format', 'filterConditions[0].value'],
    [[{ key: 'name', judgmentMethod: 'eq', value: 'a\u0000b' }], 'Text must not contain NUL characters', 'filterConditions[0].value'],
    [[{ key: 'name', judgmentMethod: 'eq', value: 'a', leftBracket: '(' }], 'Brackets are not balanced: a ) is missing', 'filterConditions[0]'],
    [{ not: 'a list' }, 'Conditions must be a list', 'filterConditions'],
  ])('rejects %j with a validation message', (input, message, member) => {
    const r = compile(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toContainEqual({ message, members: [member] });
  });

  it('re-validates trees (a tree sent by a client is not trusted)', () => {
    const cond = (over: object) => ({ kind: 'group', link: 'and', children: [{ kind: 'condition', field: 'qty', fieldType: 2, operator: 'eq', operands: [1], source: { index: 0, sortNo: null, isSys: false }, ...over }] });
    const cases: [object, string][] = [
      [cond({ field: 'password' }), 'Unknown field "password"'],
      [cond({ field: '__defineGetter__' }), 'Unknown field "__defineGetter__"'],
      [cond({ fieldType: 1 }), 'Field "qty" has field type 2'],
      [cond({ operator: 'today' }), 'Unknown operator "today"'],
      [cond({ operator: 'contains' }), 'Operator "contains" cannot be used with field "qty"'],
      [cond({ operands: ['1 or 1=1'] }), 'Expected a whole number'],
      [cond({ operands: [1, 2] }), 'Operator "eq" takes one value(s)'],
      [cond({ field: 'orderDate', fieldType: 4, operands: ['2024-03-05'] }), 'Invalid ISO 8601 date format'],
      [{ kind: 'group', link: 'xor', children: [] }, 'Link condition must be AND or OR'],
    ];
    for (const [tree, message] of cases) {
      const r = compile(tree);
      expect(r.ok, message).toBe(false);
      if (!r.ok) expect(r.errors.map((e) => e.message)).toContain(message);
    }
    let deep: object = { kind: 'group', link: 'and', children: [] };
    for (let i = 0; i < 100; i++) deep = { kind: 'group', link: i % 2 ? 'and' : 'or', children: [deep] };
    const r = compile(deep);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0].message).toBe('Conditions are nested too deeply');
  });

  it('accepts a tree from the core parser unchanged', async () => {
    const parsed = parseFilterConditions([{ key: 'qty', judgmentMethod: 'between', value: [1, 5] }], allowList);
    expect(parsed.ok).toBe(true);
    const tree = (parsed as { tree: FilterGroupNode }).tree;
    const r = compile(tree);
    expect(r.ok).toBe(true);
    if (r.ok) expect(await sqlIds(r.where)).toEqual(rows.filter(compileFilterPredicate(tree)).map((x) => x.Id as string));
  });

  it('rejects a bad allow-list instead of building SQL from it', () => {
    const bad: FilterColumn[] = [
      { code: 'a', tableFieldType: 1, column: 'x'.repeat(64) },
      { code: 'b', tableFieldType: 1, column: 'nul\u0000' },
      { code: 'a', tableFieldType: 1 },
      { code: 'c', tableFieldType: 9 as TableFieldType },
    ];
    const r = compileFilter([], bad);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => e.members[0])).toEqual(['allowList[0].column', 'allowList[1].column', 'allowList[2].code', 'allowList[3].tableFieldType']);
  });

  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 3 }), fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 4 }), (anything, list) => {
        for (const input of [anything, list, [anything], { kind: 'group', link: 'and', children: [anything] }]) {
          const r = compileFilter(input, allowList, { now: NOW });
          expect(typeof r.ok).toBe('boolean');
        }
      }),
      { numRuns: 300 },
    );
  });
});
