import { describe, expect, it } from 'vitest';
import { quoteIdentifier, selectAllStatement } from './sql-identifiers.ts';

describe('quoteIdentifier', () => {
  it.each([
    ['orders', 'postgres', 'orders'],
    ['order_lines_2', 'mysql', 'order_lines_2'],
    ['_hidden', 'postgres', '_hidden'],
    ['Orders', 'postgres', '"Orders"'],
    ['Orders', 'mysql', '`Orders`'],
    ['order lines', 'postgres', '"order lines"'],
    ['2024_sales', 'mysql', '`2024_sales`'],
    ['user', 'postgres', '"user"'],
    ['order', 'mysql', '`order`'],
    ['a"b', 'postgres', '"a""b"'],
    ['a`b', 'mysql', '`a``b`'],
    ['Order Lines]', 'mssql', '[Order Lines]]]'],
    ['orders', 'mssql', 'orders'],
    ['a"b', 'mysql', '`a"b`'],
    ['销售', 'postgres', '"销售"'],
    ['', 'postgres', '""'],
  ] as const)('%s (%s) → %s', (name, dialect, expected) => {
    expect(quoteIdentifier(name, dialect)).toBe(expected);
  });
});

describe('selectAllStatement', () => {
  it('qualifies the table by its schema', () => {
    expect(selectAllStatement('public', 'orders', 'postgres')).toBe('select * from public.orders');
    expect(selectAllStatement('test', 'Sales Lines', 'mysql')).toBe('select * from test.`Sales Lines`');
    expect(selectAllStatement('Reporting', 'user', 'postgres')).toBe('select * from "Reporting"."user"');
  });
});
