import { sqlParameterNames } from '@tessera/core/helpers/sql-parameters';
import { describe, expect, it } from 'vitest';
import { emptyParameter, parameterRows, parameterValues, tooManyParameters, withType, type ParameterRow } from './query-parameters.ts';

describe('parameterRows', () => {
  it('gives one row per name in the order the SQL uses them, new ones empty text', () => {
    expect(parameterRows(['b', 'a'], {})).toEqual([emptyParameter('b'), emptyParameter('a')]);
  });

  it('keeps what was typed while the SQL is edited, even for a name that was gone for a while', () => {
    const remembered: Record<string, ParameterRow> = { n: { name: 'n', type: 'number', value: '41' } };
    const typing = ['select :n + 1', 'select :n + :m', 'select :m', 'select :m + :n'];
    const rows = typing.map((sql) => parameterRows(sqlParameterNames(sql, 'mysql'), remembered));
    expect(rows[0]).toEqual([{ name: 'n', type: 'number', value: '41' }]);
    expect(rows[1]).toEqual([{ name: 'n', type: 'number', value: '41' }, emptyParameter('m')]);
    expect(rows[2]).toEqual([emptyParameter('m')]);
    expect(rows[3]).toEqual([emptyParameter('m'), { name: 'n', type: 'number', value: '41' }]);
  });

  it('ignores names in strings, comments and casts (the core finds them)', () => {
    expect(parameterRows(sqlParameterNames("select ':x', a::int -- :y\nfrom t where id = :id", 'postgres'), {}).map((r) => r.name)).toEqual(['id']);
  });
});

describe('withType', () => {
  it.each([
    [{ name: 'p', type: 'text', value: 'TRUE' }, 'boolean', 'true'],
    [{ name: 'p', type: 'text', value: 'yes' }, 'boolean', 'false'],
    [{ name: 'p', type: 'boolean', value: 'true' }, 'text', ''],
    [{ name: 'p', type: 'text', value: '12' }, 'number', '12'],
    [{ name: 'p', type: 'number', value: '12' }, 'null', '12'],
  ] as const)('%o as %s keeps the value %s', (row, type, value) => {
    expect(withType(row, type)).toEqual({ name: 'p', type, value });
  });
});

describe('parameterValues', () => {
  it('turns each row into the value of its type', () => {
    const rows: ParameterRow[] = [
      { name: 'n', type: 'number', value: ' 41 ' },
      { name: 'f', type: 'number', value: '-1.5e3' },
      { name: 's', type: 'text', value: ' keep spaces ' },
      { name: 'b', type: 'boolean', value: 'true' },
      { name: 'c', type: 'boolean', value: 'false' },
      { name: 'z', type: 'null', value: 'ignored' },
    ];
    expect(parameterValues(rows)).toEqual({ values: { n: 41, f: -1500, s: ' keep spaces ', b: true, c: false, z: null }, invalid: [] });
  });

  it.each(['', ' ', 'abc', '1,5', 'Infinity', '0x10', '1e'])('refuses %j as a number', (value) => {
    expect(parameterValues([{ name: 'n', type: 'number', value }])).toEqual({ values: {}, invalid: ['n'] });
  });

  it('sends an empty text as an empty text', () => {
    expect(parameterValues([emptyParameter('q')]).values).toEqual({ q: '' });
  });
});

describe('tooManyParameters', () => {
  it('allows the contract’s 50, not 51', () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `p${i}`);
    expect(tooManyParameters(names(50))).toBe(false);
    expect(tooManyParameters(names(51))).toBe(true);
  });
});
