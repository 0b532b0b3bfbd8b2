import type { TDataSourceMethod } from '@tessera/core/contracts/data-sources';
import { describe, expect, it } from 'vitest';
import { mapValidationErrors } from '../../../shared/api/validation-errors.ts';
import {
  isOpenQueryEdited,
  isValidDefault,
  methodErrorField,
  methodFormValues,
  methodInput,
  methodParameterRows,
  methodRunValues,
  withMethodParameterType,
  type MethodFormValues,
} from './method-input.ts';
import { parameterRows } from './query-parameters.ts';

const method: TDataSourceMethod = {
  id: '00000000-0000-4000-8000-000000000001',
  sourceId: '00000000-0000-4000-8000-000000000002',
  code: 'plus_one',
  name: '加一',
  description: 'adds one',
  sql: 'select :n + 1 as answer',
  request: null,
  parameters: [
    { name: 'n', type: 'number', defaultValue: 1, required: false },
    { name: 'flag', type: 'boolean', defaultValue: true, required: true },
    { name: 'q', type: 'text', defaultValue: null, required: false },
  ],
  columns: [{ name: 'answer', dataType: 'bigint' }],
  cacheSeconds: 60,
  concurrencyStamp: 'stamp-1',
  creationTime: '2025-01-01T00:00:00Z',
  lastModificationTime: null,
};

describe('methodFormValues', () => {
  it('starts a new query empty, its parameters from the rows (a null row as text without default)', () => {
    const rows = parameterRows(['n', 's', 'z'], {
      n: { name: 'n', type: 'number', value: '41' },
      z: { name: 'z', type: 'null', value: 'x' },
    });
    expect(methodFormValues(rows, null, false)).toEqual({
      code: '',
      name: '',
      description: '',
      cacheSeconds: 0,
      parameters: [
        { name: 'n', type: 'number', defaultValue: '41', required: false },
        { name: 's', type: 'text', defaultValue: '', required: false },
        { name: 'z', type: 'text', defaultValue: '', required: false },
      ],
    });
  });

  it('edits the open query: its fields, its saved parameters, a new name from its row', () => {
    const rows = parameterRows(['flag', 'extra'], { flag: { name: 'flag', type: 'text', value: 'typed for a run' } });
    expect(methodFormValues(rows, method, true)).toEqual({
      code: 'plus_one',
      name: '加一',
      description: 'adds one',
      cacheSeconds: 60,
      parameters: [
        { name: 'flag', type: 'boolean', defaultValue: 'true', required: true },
        { name: 'extra', type: 'text', defaultValue: '', required: false },
      ],
    });
  });

  it('saves the open query as another: parameters kept, code and name empty', () => {
    const values = methodFormValues(parameterRows(['n'], {}), method, false);
    expect(values).toMatchObject({ code: '', name: '', cacheSeconds: 0 });
    expect(values.parameters).toEqual([{ name: 'n', type: 'number', defaultValue: '1', required: false }]);
  });
});

describe('methodInput', () => {
  const values: MethodFormValues = {
    code: ' plus_one ',
    name: ' 加一 ',
    description: '',
    cacheSeconds: 60,
    parameters: [
      { name: 'n', type: 'number', defaultValue: ' 1 ', required: false },
      { name: 'b', type: 'boolean', defaultValue: 'true', required: true },
      { name: 's', type: 'text', defaultValue: ' a ', required: false },
      { name: 'e', type: 'number', defaultValue: '', required: false },
      { name: 'gone', type: 'text', defaultValue: 'x', required: false },
    ],
  };

  it('sends the editor’s SQL and exactly its names, defaults typed', () => {
    const { input, invalid } = methodInput(values, '  select :n, :b, :s, :e, :new  \n', ['n', 'b', 's', 'e', 'new']);
    expect(invalid).toEqual([]);
    expect(input).toEqual({
      code: 'plus_one',
      name: '加一',
      description: '',
      sql: 'select :n, :b, :s, :e, :new',
      cacheSeconds: 60,
      parameters: [
        { name: 'n', type: 'number', defaultValue: 1, required: false },
        { name: 'b', type: 'boolean', defaultValue: true, required: true },
        { name: 's', type: 'text', defaultValue: ' a ', required: false },
        { name: 'e', type: 'number', defaultValue: null, required: false },
        { name: 'new', type: 'text', defaultValue: '', required: false },
      ],
    });
  });

  it('names a default that is not a number, and takes no cache for an empty one', () => {
    const bad = { ...values, cacheSeconds: null, parameters: [{ name: 'n', type: 'number' as const, defaultValue: 'one', required: false }] };
    const { input, invalid } = methodInput(bad, 'select :n', ['n']);
    expect(invalid).toEqual(['n']);
    expect(input.cacheSeconds).toBe(0);
  });
});

describe('isValidDefault', () => {
  it.each([
    ['number', '', true],
    ['number', ' 2.5 ', true],
    ['number', 'abc', false],
    ['text', 'abc', true],
    ['boolean', 'false', true],
  ] as const)('%s %j → %s', (type, value, valid) => {
    expect(isValidDefault(type, value)).toBe(valid);
  });
});

describe('withMethodParameterType', () => {
  it.each([
    ['text', 'TRUE', 'boolean', 'true'],
    ['text', 'x', 'boolean', 'false'],
    ['boolean', 'true', 'number', ''],
    ['text', '12', 'number', '12'],
  ] as const)('%s %j as %s keeps %j', (from, value, to, kept) => {
    expect(withMethodParameterType({ name: 'p', type: from, defaultValue: value, required: true }, to)).toEqual({ name: 'p', type: to, defaultValue: kept, required: true });
  });
});

describe('methodParameterRows', () => {
  it('puts each default into the parameters table as its value', () => {
    expect(methodParameterRows(method)).toEqual({
      n: { name: 'n', type: 'number', value: '1' },
      flag: { name: 'flag', type: 'boolean', value: 'true' },
      q: { name: 'q', type: 'null', value: '' },
    });
  });
});

describe('methodRunValues', () => {
  it('leaves an empty number out so the saved default fills it', () => {
    expect(
      methodRunValues([
        { name: 'n', type: 'number', value: ' ' },
        { name: 'm', type: 'number', value: '2' },
        { name: 's', type: 'text', value: '' },
        { name: 'z', type: 'null', value: '' },
      ]),
    ).toEqual({ values: { m: 2, s: '', z: null }, invalid: [] });
  });

  it('still refuses a number that is not one', () => {
    expect(methodRunValues([{ name: 'n', type: 'number', value: 'x' }])).toEqual({ values: {}, invalid: ['n'] });
  });
});

describe('isOpenQueryEdited', () => {
  it.each([
    [null, 'select 1', false],
    [{ sql: 'select :n + 1 as answer' }, 'select :n + 1 as answer\n', false],
    [{ sql: 'select :n + 1 as answer' }, 'select :n + 2 as answer', true],
    [{ sql: 'select :n + 1 as answer' }, '', true],
  ])('%o with %j → %s', (open, sql, edited) => {
    expect(isOpenQueryEdited(open, sql)).toBe(edited);
  });
});

describe('methodErrorField', () => {
  it('puts the server’s members on the form’s fields, the SQL’s and the rest in general', () => {
    const mapped = mapValidationErrors(
      [
        { message: 'code used', members: ['code'] },
        { message: 'not a number', members: ['body.parameters.1.defaultValue'] },
        { message: 'bad SQL', members: ['sql'] },
        { message: 'names differ', members: ['parameters'] },
        { message: 'cache', members: ['body.cacheSeconds'] },
      ],
      { field: methodErrorField },
    );
    expect(mapped.fields).toEqual([
      { name: ['code'], errors: ['code used'] },
      { name: ['parameters', 1, 'defaultValue'], errors: ['not a number'] },
      { name: ['cacheSeconds'], errors: ['cache'] },
    ]);
    expect(mapped.general).toEqual(['bad SQL', 'names differ']);
  });
});
