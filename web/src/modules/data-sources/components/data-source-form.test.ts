import type { TCreateHttpSourceInput, TCreateSqlSourceInput, TDataSource } from '@tessera/core/contracts/data-sources';
import { describe, expect, it } from 'vitest';
import { formValuesOf, newFormValues, portAfterKindChange, settingsInput, type DataSourceFormValues } from './data-source-form.ts';

const sqlInput = (v: DataSourceFormValues) => settingsInput(v) as TCreateSqlSourceInput;

const saved: TDataSource = {
  id: '6f1c2b8e-8d1f-4a44-9a55-0a4c4b1d2e3f',
  name: 'ERP',
  description: 'the old ERP',
  kind: 'mysql',
  host: 'db.example.com',
  port: 3307,
  database: 'erp',
  user: 'reader',
  ssl: true,
  hasPassword: true,
  http: null,
  poolSize: 3,
  statementTimeoutSeconds: 30,
  rowCap: 500,
  readOnly: false,
  concurrencyStamp: 'abc',
  creationTime: '2026-01-01T00:00:00Z',
  lastModificationTime: null,
};

describe('portAfterKindChange', () => {
  it.each([
    [5432, 'postgres', 'mysql', 3306],
    [3306, 'mysql', 'postgres', 5432],
    [null, 'postgres', 'mysql', 3306],
    [undefined, 'mysql', 'postgres', 5432],
    // A port the user chose stays.
    [6543, 'postgres', 'mysql', 6543],
    [3306, 'postgres', 'mysql', 3306],
  ] as const)('%s: %s → %s gives %s', (port, from, to, expected) => {
    expect(portAfterKindChange(port, from, to)).toBe(expected);
  });
});

describe('settingsInput', () => {
  it('sends a new source with defaults, trimmed, and no password when none was typed', () => {
    const input = sqlInput({ ...newFormValues('mysql'), name: ' MariaDB ', host: ' 127.0.0.1 ', database: 'test', user: 'root' });
    expect(input).toEqual({
      name: 'MariaDB',
      description: '',
      kind: 'mysql',
      host: '127.0.0.1',
      port: 3306,
      database: 'test',
      user: 'root',
      ssl: false,
      readOnly: true,
      poolSize: 5,
      statementTimeoutSeconds: 15,
      rowCap: 1000,
    });
    expect('password' in input).toBe(false);
  });

  it('keeps the stored password when the field stays empty', () => {
    expect('password' in sqlInput(formValuesOf(saved))).toBe(false);
  });

  it('sends a typed password as it is (no trimming)', () => {
    expect(sqlInput({ ...formValuesOf(saved), password: ' s3cret ' }).password).toBe(' s3cret ');
  });

  it("sends '' to clear the stored password, whatever was typed", () => {
    expect(sqlInput({ ...formValuesOf(saved), password: 'typed', clearPassword: true }).password).toBe('');
  });

  it('round-trips a saved source', () => {
    const { password: _p, ...input } = { ...sqlInput(formValuesOf(saved)), password: undefined };
    expect(input).toEqual({
      name: 'ERP',
      description: 'the old ERP',
      kind: 'mysql',
      host: 'db.example.com',
      port: 3307,
      database: 'erp',
      user: 'reader',
      ssl: true,
      readOnly: false,
      poolSize: 3,
      statementTimeoutSeconds: 30,
      rowCap: 500,
    });
  });
});

describe('an HTTP source in the form', () => {
  const http: TDataSource = {
    ...saved,
    kind: 'http',
    host: 'api.example.com',
    port: 443,
    database: '',
    user: 'ann',
    http: { baseUrl: 'https://api.example.com/v1', headers: [{ name: 'X-Client', value: 'tessera' }], auth: { kind: 'basic', username: 'ann', apiKeyName: '', apiKeyIn: 'header' }, testPath: '/health', timeoutMs: 5000 },
  };

  it('round-trips its settings; the secret is sent only when typed, and cleared when authentication is none', () => {
    const input = settingsInput(formValuesOf(http)) as TCreateHttpSourceInput;
    expect(input).toEqual({
      name: 'ERP',
      description: 'the old ERP',
      kind: 'http',
      baseUrl: 'https://api.example.com/v1',
      headers: [{ name: 'X-Client', value: 'tessera' }],
      auth: { kind: 'basic', username: 'ann', apiKeyName: '', apiKeyIn: 'header' },
      testPath: '/health',
      timeoutMs: 5000,
      poolSize: 3,
      rowCap: 500,
      readOnly: false,
    });
    expect((settingsInput({ ...formValuesOf(http), password: 'pw' }) as TCreateHttpSourceInput).secret).toBe('pw');
    expect((settingsInput({ ...formValuesOf(http), authKind: 'none', password: 'pw' }) as TCreateHttpSourceInput).secret).toBe('');
  });

  it('leaves out header rows without a name, and an API key name unless the kind is apiKey', () => {
    const input = settingsInput({ ...formValuesOf(http), authKind: 'bearer', apiKeyName: 'X-Key', headers: [{ name: ' ', value: 'x' }, { name: ' X-A ', value: 'b' }] }) as TCreateHttpSourceInput;
    expect(input.headers).toEqual([{ name: 'X-A', value: 'b' }]);
    expect(input.auth).toEqual({ kind: 'bearer', username: '', apiKeyName: '', apiKeyIn: 'header' });
  });
});
