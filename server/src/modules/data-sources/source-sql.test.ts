import { bindSqlParameters } from '@tessera/core/helpers/sql-parameters';
import { describe, expect, it } from 'vitest';
import { rowsSql } from './source-rows.ts';
import { cappedSql, columnsSql, likeLiteral, objectsSql, quoteName } from './source-sql.ts';

// The SQL the product writes around a saved query. SQL Server has no server on the build machine:
// its dialect is tested here as text (PostgreSQL and MySQL / MariaDB run against real servers in
// data-sources.test.ts and business-data-source-query.test.ts).

const columns = new Set(['code', 'name', 'odd]name']);
const options = { rowCap: 1000, has: (c: string) => columns.has(c), unknown: (c: string) => new Error(`unknown ${c}`) };
const request = {
  where: [
    { column: 'code', op: 'in' as const, value: ['C1', "C2'; drop table t; --"] },
    { column: 'odd]name', op: 'ge' as const, value: 5 },
  ],
  search: { columns: ['name'], text: '50%_[a]' },
  orderBy: 'name',
  limit: 20,
  offset: 40,
};

describe('SQL Server text', () => {
  it('quotes names in brackets, doubling a closing bracket', () => {
    expect(quoteName('mssql', 'odd]name')).toBe('[odd]]name]');
    expect(quoteName('postgres', 'a"b')).toBe('"a""b"');
    expect(quoteName('mysql', 'a`b')).toBe('`a``b`');
  });

  it('escapes LIKE wildcards, and SQL Server’s [ as well', () => {
    expect(likeLiteral('mssql', '50%_[a]\\')).toBe('50\\%\\_\\[a]\\\\');
    expect(likeLiteral('mysql', '50%_[a]')).toBe('50\\%\\_[a]');
  });

  it('pages a saved query with OFFSET … FETCH, casts to nvarchar, escapes LIKE, and binds every value as @pN', () => {
    const { page, count, bound } = rowsSql('mssql', 'select code, name from customers where region = :region;', { region: 'east' }, request, options);
    expect(page).toBe(
      [
        'select * from (',
        'select code, name from customers where region = :region',
        ') as q',
        'where cast(q.[code] as nvarchar(4000)) in (:tessera_v0, :tessera_v1)',
        '  and q.[odd]]name] >= :tessera_v2',
        "  and (cast(q.[name] as nvarchar(4000)) like :tessera_v3 escape '\\')",
        'order by q.[name]',
        'offset 40 rows fetch next 20 rows only',
      ].join('\n'),
    );
    expect(count).toMatch(/^select count\(\*\) as n from \(\n/);
    expect(bound).toEqual({ region: 'east', tessera_v0: 'C1', tessera_v1: "C2'; drop table t; --", tessera_v2: 5, tessera_v3: '%50\\%\\_\\[a]%' });
    const sent = bindSqlParameters(cappedSql('mssql', page, 1001), 'mssql', bound);
    expect(sent.sql.startsWith('set rowcount 1001;\nselect * from (')).toBe(true);
    expect(sent.sql).toContain('where region = @p1');
    expect(sent.sql).toContain('in (@p2, @p3)');
    expect(sent.sql).not.toContain('drop table');
    expect(sent.parameters).toEqual(['east', 'C1', "C2'; drop table t; --", 5, '%50\\%\\_\\[a]%']);
  });

  it('orders by nothing in particular when no order is asked (OFFSET needs one); PostgreSQL and MySQL use LIMIT', () => {
    expect(rowsSql('mssql', 'select 1 as code', {}, { limit: 5 }, options).page).toMatch(/order by \(select null\)\noffset 0 rows fetch next 5 rows only$/);
    expect(rowsSql('postgres', 'select 1 as code', {}, { limit: 5, orderBy: 'code' }, options).page).toMatch(/order by q\."code"\nlimit 5 offset 0$/);
    expect(rowsSql('mysql', 'select 1 as code', {}, { limit: 5000 }, options).page).toMatch(/\) as q\nlimit 1000 offset 0$/);
  });

  it('refuses a column the saved query does not answer', () => {
    expect(() => rowsSql('mssql', 'select 1 as code', {}, { limit: 5, orderBy: 'secret' }, options)).toThrow('unknown secret');
  });

  it('caps reads with set rowcount (never 0, which lifts the cap) and browses with TOP and @pN', () => {
    expect(cappedSql('mssql', 'select 1', 0)).toBe('set rowcount 1;\nselect 1');
    expect(cappedSql('postgres', 'select 1', 0)).toBe('select * from (select 1\n) as tessera_query limit 0');
    expect(objectsSql('mssql', 5000)).toBe('select top (5000) table_schema, table_name, table_type from information_schema.tables where table_schema not in (@p1, @p2) order by table_schema, table_name');
    expect(columnsSql('mssql')).toContain('c.table_schema = @p1 and c.table_name = @p2');
    expect(columnsSql('mssql')).toContain("case when c.is_nullable = 'YES' then 1 else 0 end");
  });
});
