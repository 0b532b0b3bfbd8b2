import { describe, expect, it } from 'vitest';
import { mssqlCall, mysqlCall, postgresCall, routinesOf, type RoutineCall } from './source-routines.ts';

// The statements that call a stored routine, as text (SQL Server has no server on this machine:
// its call is tested here only, README "Data sources"): names quoted in each dialect's way even
// when hostile, values only as bound parameters, OUT values through variables or OUTPUT.

const hostile = { schema: 'sales"`]', name: 'summary"); drop table users; --', kind: 'procedure', returnsTable: false } as const;
const parameters: RoutineCall['parameters'] = [
  { name: 'p_region', mode: 'in', type: 'text', value: "east' or '1'='1" },
  { name: 'o_count', mode: 'out', type: 'integer', value: null },
  { name: 'io_scale', mode: 'inout', type: 'numeric', value: '1.5' },
];

describe('calls of stored routines', () => {
  it('MySQL: INOUT and OUT through session variables, IN bound; a function selected', () => {
    expect(mysqlCall({ routine: hostile, parameters, limit: 10 })).toEqual({
      setup: [
        { sql: 'set @tessera_p2 = null', values: [] },
        { sql: 'set @tessera_p3 = ?', values: ['1.5'] },
      ],
      call: { sql: 'call `sales"``]`.`summary"); drop table users; --`(?, @tessera_p2, @tessera_p3)', values: ["east' or '1'='1"] },
      outs: { sql: 'select @tessera_p2 as `o_count`, @tessera_p3 as `io_scale`', values: [] },
    });
    expect(mysqlCall({ routine: { schema: 'test', name: 'twice', kind: 'function', returnsTable: false }, parameters: [parameters[0]!], limit: 10 })).toEqual({
      setup: [],
      call: { sql: 'select `test`.`twice`(?) as `value`', values: ["east' or '1'='1"] },
      outs: null,
    });
  });

  it('PostgreSQL: a procedure called with casts and NULL for OUT; a function selected from, capped', () => {
    expect(postgresCall({ routine: hostile, parameters, limit: 10 })).toEqual({
      sql: 'call "sales""`]"."summary""); drop table users; --"(cast($1 as text), cast(null as integer), cast($2 as numeric))',
      values: ["east' or '1'='1", '1.5'],
    });
    expect(postgresCall({ routine: { schema: 'public', name: 'orders_over', kind: 'function', returnsTable: false }, parameters: [{ name: 'p_min', mode: 'in', type: 'double', value: '2' }], limit: 1001 })).toEqual({
      sql: 'select * from "public"."orders_over"(cast($1 as double precision)) limit 1001',
      values: ['2'],
    });
  });

  it('SQL Server: exec with each parameter by name, OUT and INOUT as output; a scalar function selected', () => {
    expect(mssqlCall({ routine: hostile, parameters, limit: 10 })).toEqual({
      sql: 'exec [sales"`]]].[summary"); drop table users; --] @p_region = @p1, @o_count = @p2 output, @io_scale = @p3 output',
      values: ["east' or '1'='1", null, '1.5'],
    });
    expect(mssqlCall({ routine: { schema: 'dbo', name: 'twice', kind: 'function', returnsTable: false }, parameters: [{ name: 'x', mode: 'in', type: 'integer', value: 21 }], limit: 10 })).toEqual({ sql: 'select [dbo].[twice](@p1) as [value]', values: [21] });
    expect(mssqlCall({ routine: { schema: 'dbo', name: 'tick', kind: 'procedure', returnsTable: false }, parameters: [], limit: 10 }).sql).toBe('exec [dbo].[tick]');
    // A table-valued function: its rows, capped in the database; a hostile name stays quoted.
    const tvf = { schema: 'sales', name: 'orders_of]; drop table x; --', kind: 'function', returnsTable: true } as const;
    expect(mssqlCall({ routine: tvf, parameters: [parameters[0]!, { name: 'p_min', mode: 'in', type: 'numeric', value: '2' }], limit: 1001 })).toEqual({
      sql: 'select top (1001) * from [sales].[orders_of]]; drop table x; --](@p1, @p2)',
      values: ["east' or '1'='1", '2'],
    });
  });

  it('reads the catalogue: parameters grouped under their routine, overloads apart, types mapped, SQL Server’s @ dropped', () => {
    expect(
      routinesOf([
        ['dbo', 'summary', 'PROCEDURE', '@p_region', 'IN', 'nvarchar', 'summary'],
        ['dbo', 'summary', 'PROCEDURE', '@o_count', 'INOUT', 'int', 'summary'],
        ['public', 'f', 'function', '', 'in', 'timestamp with time zone', '101'],
        ['public', 'f', 'function', 'b', 'in', 'boolean', '102'],
        ['public', 'tick', 'procedure', null, null, null, '103'],
        ['dbo', 'orders_of', 'FUNCTION', '@p_min', 'IN', 'decimal', 'orders_of', 1],
      ]),
    ).toEqual([
      {
        schema: 'dbo',
        name: 'summary',
        kind: 'procedure',
        returnsTable: false,
        parameters: [
          { name: 'p_region', mode: 'in', type: 'text', sourceType: 'nvarchar' },
          { name: 'o_count', mode: 'inout', type: 'integer', sourceType: 'int' },
        ],
      },
      { schema: 'public', name: 'f', kind: 'function', returnsTable: false, parameters: [{ name: 'p1', mode: 'in', type: 'timestamptz', sourceType: 'timestamp with time zone' }] },
      { schema: 'public', name: 'f', kind: 'function', returnsTable: false, parameters: [{ name: 'b', mode: 'in', type: 'boolean', sourceType: 'boolean' }] },
      { schema: 'public', name: 'tick', kind: 'procedure', returnsTable: false, parameters: [] },
      { schema: 'dbo', name: 'orders_of', kind: 'function', returnsTable: true, parameters: [{ name: 'p_min', mode: 'in', type: 'numeric', sourceType: 'decimal' }] },
    ]);
  });
});
