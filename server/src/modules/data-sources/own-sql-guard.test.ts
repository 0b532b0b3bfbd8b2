import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlParser, ownSqlRefusal } from './own-sql-guard.ts';

// The guard of the product's own database as a source: what passes and what is refused, on
// PostgreSQL's own parse tree. The API tests (own-data-source.test.ts) run the passing ones.
const views = new Set(['orders__order', 'orders__lines', 'Mixed__Case']);
const check = (sql: string) => ownSqlRefusal(sql, views);

beforeAll(() => loadSqlParser());

describe('the own-database query guard', () => {
  it.each([
    'select * from orders__order',
    'select o."Id", count(l."Id")::text as n from orders__order o left join biz_views.orders__lines l on l."ParentViewDataId" = o."Id" group by o."Id" order by 2 desc limit 10',
    'with big as (select * from orders__order where "CreationTime" > now() - interval \'7 days\') select b.*, row_number() over (order by "CreationTime") from big b',
    'with recursive n(i) as (select 1 union all select i + 1 from n where i < 5) select i from n',
    'select * from "Mixed__Case" where lower("Name") ilike $1 and coalesce("Amount", 0) between 1 and 10',
    "select substring('abc' from 2), trim(both ' ' from 'x'), extract(year from current_date), now() at time zone 'UTC', 'a'::varchar(3), cast(1 as double precision)",
    'select * from (select * from orders__order) q where exists (select 1 from orders__lines l where l."ParentViewDataId" = q."Id")',
    'values (1, 2), (3, 4)',
    'select version()',
    'select * from generate_series(1, 3) g',
  ])('lets through %s', (sql) => {
    expect(check(sql)).toBeNull();
  });

  it.each([
    ['select * from users', 'notView', 'users'],
    ['select * from public.users', 'notView', 'public.users'],
    ['select * from biz.v_0123', 'notView', 'biz.v_0123'],
    ['select * from pg_catalog.pg_authid', 'notView', 'pg_catalog.pg_authid'],
    ['select * from pg_authid', 'notView', 'pg_authid'],
    ['select * from mixed__case', 'notView', 'mixed__case'],
    ['select * from orders__order o, (select * from sessions) s', 'notView', 'sessions'],
    // A WITH query is not seen by the ones before it: here "users" is the real table.
    ['with a as (select * from users), users as (select 1) select * from a', 'notView', 'users'],
    ['(with users as (select 1) select * from users) union all select * from users', 'notView', 'users'],
    ["select set_config('role', 'postgres', true)", 'function', 'set_config'],
    ["select pg_read_file('/etc/passwd')", 'function', 'pg_read_file'],
    ["select query_to_xml('select * from users', true, true, '')", 'function', 'query_to_xml'],
    ['select pg_sleep(10)', 'function', 'pg_sleep'],
    ['select factory.my_function(1)', 'function', 'factory.my_function'],
    ["select current_setting('data_directory')", 'function', 'current_setting'],
    ['select current_user', 'function', 'current_user'],
    ["select 'users'::regclass", 'type', 'regclass'],
    ['select 1::public.my_type', 'type', 'public.my_type'],
    ['select * into copy from orders__order', 'construct', 'SELECT INTO'],
    ['select * from orders__order for update', 'construct', 'FOR UPDATE / FOR SHARE'],
    ['with gone as (delete from orders__order returning *) select * from gone', 'construct', 'WITH gone (DeleteStmt)'],
    ['select 1 operator(public.+) 2', 'construct', 'public.+'],
    ["select xmlelement(name x, 'y')", 'construct', 'XmlExpr'],
  ])('refuses %s', (sql, code, subject) => {
    expect(check(sql)).toEqual({ code, subject });
  });

  it.each(['delete from orders__order', 'insert into orders__order values (1)', 'drop view orders__order', 'set role postgres', 'select 1; select 2', 'copy orders__order to stdout', 'explain select 1'])(
    'refuses a statement that is not one SELECT: %s',
    (sql) => {
      expect(check(sql)?.code).toBe('notSelect');
    },
  );

  it('answers a syntax error with the parser’s words', () => {
    expect(check('select from where')).toMatchObject({ code: 'syntax', subject: expect.stringContaining('syntax error') });
  });
});
