import { describe, expect, it } from 'vitest';
import { dataSourceErrorKind } from './error-kind.ts';

describe('dataSourceErrorKind', () => {
  it.each([
    [400, 'DataSource.ReadOnly', 'readOnly'],
    [400, 'DataSource.QueryFailed', 'queryFailed'],
    [502, 'DataSource.Unavailable', 'unavailable'],
    [502, 'DataSource.BadResponse', 'badResponse'],
    [502, undefined, 'unavailable'],
    [504, 'DataSource.Timeout', 'timeout'],
    [504, undefined, 'timeout'],
    [400, 'ValidationError', 'invalid'],
    [400, 'Something.Else', 'invalid'],
    [500, 'InternalError', 'failed'],
    [0, undefined, 'failed'],
  ] as const)('%i %s → %s', (status, code, kind) => {
    expect(dataSourceErrorKind(status, code)).toBe(kind);
  });
});
