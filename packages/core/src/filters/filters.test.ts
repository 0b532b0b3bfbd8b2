import { describe, expect, it } from 'vitest';
import { compileFilterPredicate, countFilterOperands, FILTER_OPERATORS, foldCase, MAX_FILTER_OPERANDS, parseFilterConditions, resolveDateShortcut, validateFilterTree, type FilterField, type FilterNode } from './index.ts';
import { TEXT_RULE_MESSAGE } from '../contracts/text.ts';

const fields: FilterField[] = [
  { code: 'name', tableFieldType: 1 },
  { code: 'qty', tableFieldType: 2 },
  { code: 'price', tableFieldType: 3 },
  { code: 'orderDate', tableFieldType: 4 },
  { code: 'paid', tableFieldType: 5 },
  { code: 'customerId', tableFieldType: 6 },
];
const rows = [
  { Id: 'r1', name: 'Apple pie', qty: 5, price: '12.50', orderDate: '2024-03-05T09:00:00Z', paid: true, customerId: 'c1' },
  { Id: 'r2', name: 'banana', qty: 15, price: 3, orderDate: '2024-03-04', paid: false, customerId: 'c2' },
  { Id: 'r3', name: '', qty: null, price: null, orderDate: null, paid: null, customerId: null },
  { Id: 'r4', name: 'Cherry', qty: 0, price: 100, orderDate: '2024-02-28T23:30:00Z', paid: 'true', customerId: 'c1' },
];
const now = new Date('2024-03-05T12:00:00Z'); // a Tuesday

function ids(conditions: unknown[], options = {}) {
  const result = parseFilterConditions(conditions, fields, { now, ...options });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return rows.filter(compileFilterPredicate(result.tree)).map((r) => r.Id);
}
const c = (key: string, judgmentMethod: string | number, value?: unknown, extra: object = {}) => ({ key, judgmentMethod, value, ...extra });

describe('operators against rows (JS back end)', () => {
  it.each([
    [c('name', 'eq', 'banana'), ['r2']],
    [c('name', 'ne', 'banana'), ['r1', 'r3', 'r4']],
    [c('name', 'contains', 'AN'), ['r2']],
    [c('name', 'notContains', 'an'), ['r1', 'r3', 'r4']],
    [c('name', 'startsWith', 'app'), ['r1']],
    [c('name', 'endsWith', 'PIE'), ['r1']],
    [c('name', 'in', 'banana,Cherry'), ['r2', 'r4']],
    [c('name', 'notIn', ['banana']), ['r1', 'r3', 'r4']],
    [c('name', 'isEmpty'), ['r3']],
    [c('name', 'isNotEmpty'), ['r1', 'r2', 'r4']],
    [c('qty', 'gt', '5'), ['r2']],
    [c('qty', 'ge', 5), ['r1', 'r2']],
    [c('qty', 'lt', 5), ['r4']],
    [c('qty', 'le', 5), ['r1', 'r4']],
    [c('qty', 'between', [1, 10]), ['r1']],
    [c('qty', 'in', '0,15'), ['r2', 'r4']],
    [c('price', 'eq', '12.5'), ['r1']],
    [c('price', 'between', '3,12.5'), ['r1', 'r2']],
    [c('paid', 'eq', 'true'), ['r1', 'r4']],
    [c('paid', 'eq', false), ['r2']],
    [c('customerId', 'eq', 'c1'), ['r1', 'r4']],
    [c('orderDate', 'eq', '2024-03-05'), ['r1']],
    [c('orderDate', 'ne', '2024-03-05'), ['r2', 'r3', 'r4']],
    [c('orderDate', 'gt', '2024-03-04'), ['r1']],
    [c('orderDate', 'le', '2024-03-04'), ['r2', 'r4']],
    [c('orderDate', 'lt', '2024-03-05T10:00:00Z'), ['r1', 'r2', 'r4']],
    [c('orderDate', 'between', ['2024-03-01', '2024-03-04']), ['r2']],
    [c('orderDate', 'today'), ['r1']],
    [c('orderDate', 'yesterday'), ['r2']],
    [c('orderDate', 'thisWeek'), ['r1', 'r2']],
    [c('orderDate', 'lastWeek'), ['r4']],
    [c('orderDate', 'thisMonth'), ['r1', 'r2']],
    [c('orderDate', 'lastMonth'), ['r4']],
    [c('orderDate', 'thisYear'), ['r1', 'r2', 'r4']],
    [c('orderDate', 16), ['r1']],
    [c('qty', 1, 15), ['r2']],
    [c('qty', '>=', 15), ['r2']],
  ])('%j → %j', (condition, expected) => {
    expect(ids([condition])).toEqual(expected);
  });

  it('resolves dates in the user zone', () => {
    // At UTC+8, r4 (2024-02-28T23:30Z) is on 2024-02-29 local.
    expect(ids([c('orderDate', 'eq', '2024-02-29')], { offsetMinutes: 480 })).toEqual(['r4']);
    expect(ids([c('orderDate', 'eq', '2024-02-28')])).toEqual(['r4']);
  });
});

describe('AND/OR and brackets', () => {
  it('AND binds tighter than OR', () => {
    // name = banana OR qty = 5 AND paid = false  →  banana OR (qty 5 AND unpaid)
    expect(ids([c('name', 'eq', 'banana'), c('qty', 'eq', 5, { linkCondition: 'or' }), c('paid', 'eq', false, { linkCondition: 'and' })])).toEqual(['r2']);
  });
  it('brackets group', () => {
    expect(
      ids([
        c('name', 'eq', 'banana', { leftBracket: '(' }),
        c('qty', 'eq', 5, { linkCondition: 'OR', rightBracket: ')' }),
        c('paid', 'eq', true, { linkCondition: 'AND' }),
      ]),
    ).toEqual(['r1']);
  });
  it('orders entries by sortNo', () => {
    const result = parseFilterConditions([c('qty', 'eq', 5, { sortNo: 2, linkCondition: 'or' }), c('name', 'eq', 'banana', { sortNo: 1 })], fields);
    expect(result.ok && result.tree).toMatchObject({ link: 'or', children: [{ field: 'name' }, { field: 'qty' }] });
  });
  it('produces a flat, typed tree', () => {
    const result = parseFilterConditions(
      [c('qty', 'gt', '1', { leftBracket: '((' }), c('qty', 'lt', '9', { linkCondition: 'and', rightBracket: '))' }), c('orderDate', 'today', undefined, { linkCondition: 'or', isSys: true })],
      fields,
      { now },
    );
    const expected: FilterNode = {
      kind: 'group',
      link: 'or',
      children: [
        {
          kind: 'group',
          link: 'and',
          children: [
            { kind: 'condition', field: 'qty', fieldType: 2, operator: 'gt', operands: [1], source: { index: 0, sortNo: null, isSys: false } },
            { kind: 'condition', field: 'qty', fieldType: 2, operator: 'lt', operands: [9], source: { index: 1, sortNo: null, isSys: false } },
          ],
        },
        {
          kind: 'group',
          link: 'and',
          children: [
            { kind: 'condition', field: 'orderDate', fieldType: 4, operator: 'ge', operands: ['2024-03-05T00:00:00.000Z'], source: { index: 2, sortNo: null, isSys: true, shortcut: 'today' } },
            { kind: 'condition', field: 'orderDate', fieldType: 4, operator: 'lt', operands: ['2024-03-06T00:00:00.000Z'], source: { index: 2, sortNo: null, isSys: true, shortcut: 'today' } },
          ],
        },
      ],
    };
    expect(result).toEqual({ ok: true, tree: expected });
  });
  it('an empty list matches every row', () => {
    expect(ids([])).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(parseFilterConditions(null, fields)).toEqual({ ok: true, tree: { kind: 'group', link: 'and', children: [] } });
  });
});

describe('validation messages, never exceptions', () => {
  it.each([
    [[c('secret', 'eq', 1)], 'Unknown field "secret"', 'filterConditions[0].key'],
    [[c('name', 'sql', 1)], 'Unknown operator "sql"', 'filterConditions[0].judgmentMethod'],
    [[c('paid', 'gt', 1)], 'Operator "gt" cannot be used with field "paid"', 'filterConditions[0].judgmentMethod'],
    [[c('name', 'today')], 'Operator "today" cannot be used with field "name"', 'filterConditions[0].judgmentMethod'],
    [[c('qty', 'eq', 'abc')], 'Expected a number', 'filterConditions[0].value'],
    [[c('qty', 'eq', 1.5)], 'Expected a whole number', 'filterConditions[0].value'],
    [[c('orderDate', 'eq', '05/03/2024')], 'Invalid ISO 8601 date format', 'filterConditions[0].value'],
    [[c('paid', 'eq', 'maybe')], 'Expected true or false', 'filterConditions[0].value'],
    [[c('qty', 'between', '1')], 'Between needs two values', 'filterConditions[0].value'],
    [[c('qty', 'in', '')], 'Give between 1 and 1000 values', 'filterConditions[0].value'],
    [[c('name', 'eq', { $ne: 1 })], 'Expected text', 'filterConditions[0].value'],
    [[c('name', 'eq', 'a', { leftBracket: '(' })], 'Brackets are not balanced: a ) is missing', 'filterConditions[0]'],
    [[c('name', 'eq', 'a', { rightBracket: ')' })], 'Brackets are not balanced: an extra )', 'filterConditions[0]'],
    [[c('name', 'eq', 'a', { leftBracket: '(x' })], 'Invalid left bracket', 'filterConditions[0].leftBracket'],
    [[c('name', 'eq', 'a'), c('name', 'eq', 'b', { linkCondition: 'xor' })], 'Link condition must be AND or OR', 'filterConditions[1].linkCondition'],
    [['nope'], 'Each condition must be an object', 'filterConditions[0]'],
    ['nope', 'Conditions must be a list', 'filterConditions'],
  ])('%j', (list, message, member) => {
    const result = parseFilterConditions(list, fields, { now });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors).toContainEqual({ message, members: [member] });
  });

  it('needs a clock for shortcuts', () => {
    expect(parseFilterConditions([c('orderDate', 'today')], fields)).toEqual({ ok: false, errors: [{ message: 'A clock is needed for date shortcuts', members: ['filterConditions[0].judgmentMethod'] }] });
  });

  it('reports every invalid entry at once, with a custom path', () => {
    const result = parseFilterConditions([c('x', 'eq', 1), c('qty', 'eq', 'y')], fields, { path: 'joinConditions' });
    expect(!result.ok && result.errors.map((e) => e.members[0])).toEqual(['joinConditions[0].key', 'joinConditions[1].value']);
  });
});

describe('operator table and shortcuts', () => {
  it('has unique codes and ids', () => {
    expect(new Set(FILTER_OPERATORS.map((o) => o.code)).size).toBe(FILTER_OPERATORS.length);
    expect(new Set(FILTER_OPERATORS.map((o) => o.id)).size).toBe(FILTER_OPERATORS.length);
  });
  it.each([
    ['thisWeek', '2024-03-04T00:00:00.000Z', '2024-03-11T00:00:00.000Z'],
    ['nextWeek', '2024-03-11T00:00:00.000Z', '2024-03-18T00:00:00.000Z'],
    ['thisQuarter', '2024-01-01T00:00:00.000Z', '2024-04-01T00:00:00.000Z'],
    ['lastQuarter', '2023-10-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z'],
    ['lastYear', '2023-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z'],
    ['nextMonth', '2024-04-01T00:00:00.000Z', '2024-05-01T00:00:00.000Z'],
  ] as const)('%s', (code, from, to) => {
    expect(resolveDateShortcut(code, now)).toEqual({ from, to });
  });
  it('resolves in the user zone', () => {
    // 2024-03-05T20:00Z is already Wednesday 04:00 at UTC+8.
    expect(resolveDateShortcut('today', new Date('2024-03-05T20:00:00Z'), 480)).toEqual({ from: '2024-03-05T16:00:00.000Z', to: '2024-03-06T16:00:00.000Z' });
    // Sunday belongs to the week that started on Monday.
    expect(resolveDateShortcut('thisWeek', new Date('2024-03-10T12:00:00Z')).from).toBe('2024-03-04T00:00:00.000Z');
  });
});

describe('text semantics shared with SQL', () => {
  const match = (field: string, op: string, value: unknown, values: unknown[]) => {
    const parsed = parseFilterConditions([c(field, op, value)], fields);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const p = compileFilterPredicate(parsed.tree);
    return values.filter((v) => p({ [field]: v }));
  };
  it('folds case per code point like PostgreSQL lower()', () => {
    expect(foldCase('ΣΑΣ')).toBe('σασ'); // no context-dependent final sigma
    expect(foldCase('İstanbul')).toBe('istanbul'); // not i + combining dot
    expect(foldCase('ÄPFEL Straße')).toBe('äpfel straße');
    expect(match('name', 'contains', 'σας', ['ΣΑΣ', 'σας', 'abc'])).toEqual(['σας']);
    expect(match('name', 'contains', 'σασ', ['ΣΑΣ', 'σας'])).toEqual(['ΣΑΣ']);
  });
  it('orders text by code point (COLLATE "C"), not by UTF-16 unit', () => {
    // U+E000 (private use) < U+1F600 (emoji) by code point, though its UTF-16 unit is larger.
    expect(match('name', 'gt', '\uE000', ['😀', '\uE000', 'z', '\uFFFD'])).toEqual(['😀', '\uFFFD']);
    expect(match('name', 'lt', 'a', ['B', 'a', 'Z', '', null])).toEqual(['B', 'Z']);
  });
  it('rejects NUL characters and lone surrogates in text values (PostgreSQL text cannot hold them)', () => {
    for (const bad of ['a\u0000', 'a\ud800', '\udc00', 'x\ud83d']) {
      const r = parseFilterConditions([c('name', 'eq', bad)], fields);
      expect(!r.ok && r.errors[0].message).toBe(TEXT_RULE_MESSAGE);
      const list = parseFilterConditions([c('name', 'in', ['ok', bad])], fields);
      expect(!list.ok && list.errors[0].members).toEqual(['filterConditions[0].value']);
    }
    expect(parseFilterConditions([c('name', 'eq', 'a😀')], fields).ok).toBe(true);
  });
  it('caps the values of all conditions together (bound parameters)', () => {
    const values = Array.from({ length: 1000 }, (_, i) => `v${i}`);
    const at = (n: number) => Array.from({ length: n }, () => c('name', 'in', values));
    expect(parseFilterConditions(at(MAX_FILTER_OPERANDS / 1000), fields).ok).toBe(true);
    const over = parseFilterConditions([...at(MAX_FILTER_OPERANDS / 1000), c('name', 'eq', 'x')], fields);
    expect(!over.ok && over.errors).toEqual([{ message: `At most ${MAX_FILTER_OPERANDS} values in all conditions together`, members: ['filterConditions'] }]);
    expect(parseFilterConditions(at(70), fields, { maxOperands: Number.POSITIVE_INFINITY }).ok).toBe(true);
    const tree = parseFilterConditions([c('name', 'in', ['a', 'b']), c('name', 'eq', 'c')], fields);
    expect(tree.ok && countFilterOperands(tree.tree)).toBe(3);
  });
});

describe('validateFilterTree', () => {
  it('accepts what the parser produces and rejects tampered trees', () => {
    const parsed = parseFilterConditions([c('qty', 'between', [1, 5]), c('orderDate', 'today', undefined, { linkCondition: 'or' })], fields, { now });
    expect(parsed.ok && validateFilterTree(parsed.tree, fields)).toEqual([]);
    const tampered = { kind: 'group', link: 'and', children: [{ kind: 'condition', field: 'constructor', fieldType: 1, operator: 'eq', operands: ['x'] }] };
    expect(validateFilterTree(tampered, fields).map((e) => e.message)).toEqual(['Unknown field "constructor"']);
    expect(validateFilterTree(null, fields)[0].message).toBe('Expected a condition or a group');
  });
});
