import { describe, expect, it } from 'vitest';
import { bindSqlParameters, sqlParameterNames, sqlStatements } from './sql-parameters.ts';

describe('named SQL parameters', () => {
  it.each([
    ['select * from t where a = :a and b = :b or a = :a', ['a', 'b']],
    ["select ':notme', \"col:x\", `m:y` from t where x = :x", ['x']],
    ['select x::int, $$ :inside $$, $f$ :also $f$ from t where y = :y -- :comment\n and z = :z /* :c */', ['y', 'z']],
    ["select 'it''s :quoted' where v = :v", ['v']],
    ['set @a := 1', []],
  ])('%s → %j', (sql, names) => {
    expect(sqlParameterNames(sql)).toEqual(names);
  });

  it('binds PostgreSQL placeholders by number, once per name', () => {
    expect(bindSqlParameters('select :a, :b, :a', 'postgres', { a: 1, b: "x'; drop table t; --" })).toEqual({ sql: 'select $1, $2, $1', parameters: [1, "x'; drop table t; --"], missing: [] });
  });

  it('binds MySQL placeholders in order, skipping backslash-escaped quotes and # comments', () => {
    expect(bindSqlParameters("select 'a\\':x', :a, :b, :a # :c", 'mysql', { a: 1, b: 2 })).toEqual({ sql: "select 'a\\':x', ?, ?, ? # :c", parameters: [1, 2, 1], missing: [] });
  });

  it('binds SQL Server placeholders by number (@p1), skipping [bracketed] names with ]] inside', () => {
    expect(bindSqlParameters("select [a:x]]:y], :a, N'b:c', :b, :a from [t]", 'mssql', { a: 1, b: 'x' })).toEqual({ sql: "select [a:x]]:y], @p1, N'b:c', @p2, @p1 from [t]", parameters: [1, 'x'], missing: [] });
    expect(sqlStatements('select [;] from t; select 2', 'mssql')).toEqual({ keywords: ['select', 'select'], count: 2 });
  });

  it('names the parameters that have no value', () => {
    expect(bindSqlParameters('select :a, :b', 'postgres', { a: 1 }).missing).toEqual(['b']);
  });

  it.each([
    ['  -- hello\n (select 1);', ['select'], 1],
    ["select ';' from t; drop table t", ['select', 'drop'], 2],
    ['/* insert */ with x as (select 1) delete from t', ['with'], 1],
    ["select $$ ; $$", ['select'], 1],
    ['', [], 0],
  ])('reads the statements of %j', (sql, keywords, count) => {
    expect(sqlStatements(sql as string, 'postgres')).toEqual({ keywords, count });
  });
});
