import { describe, expect, it } from 'vitest';
import { forbiddenWordOf } from './body-guard.ts';

describe('the body guard', () => {
  it('lets ordinary PL/pgSQL through', () => {
    for (const body of [
      'begin return query select n, n * 2 from generate_series(1, p_count) n; end',
      "begin insert into t values (1) on conflict do nothing; raise notice 'rolled %', 1; end",
      'declare total numeric := 0; begin for i in 1..3 loop total := total + i; end loop; out_total := total; end',
      'begin return query select "Id", "Name" from biz."orders" where "Amount" > p_min; end',
    ]) expect(forbiddenWordOf(body), body).toBeNull();
  });

  it('refuses role switches, dynamic SQL, DDL and timeout changes in any case, in strings and comments too', () => {
    const cases: [string, string][] = [
      ['begin reset role; end', 'reset'],
      ['begin RESET ROLE; end', 'RESET'],
      ["begin perform set_config('role', 'postgres', true); end", 'set_config'],
      ['begin set session authorization postgres; end', 'authorization'],
      ["begin execute 'select 1'; end", 'execute'],
      ["begin perform query_to_xml('select 1', true, true, ''); end", 'query_to_xml'],
      ['begin drop table users; end', 'drop'],
      ['begin create temp table x (a int); end', 'create'],
      ['begin set local statement_timeout = 0; end', 'statement_timeout'],
      ["begin do 'begin null; end'; end", 'do'],
      ['begin perform 1; end -- reset role', 'reset'],
      ['begin perform "ro""le"; end', 'role'],
      ["begin perform E'\\x72ole'; end", '\\x7'],
      ['begin perform U&"set\\005Fconfig"(1); end', 'U&'],
      ["begin perform E'\\162ole'; end", '\\1'],
    ];
    for (const [body, word] of cases) expect(forbiddenWordOf(body), body).toBe(word);
  });
});
