/*
 * Stored procedures and functions of SQL sources, as text: the catalogue query that lists them with
 * their parameters, and the statements that call one. Names are quoted in each dialect's own way
 * (a quote inside a name doubled), types come from the factory's allow-list, values are bound
 * (`?`, `$n`, `@pn`): nothing the caller sends reaches a statement as text.
 */
import { factoryTypeOf, FACTORY_TYPES, type TFactoryType, type TRoutine, type TSourceRoutine } from '@tessera/core/contracts/data-factory';
import type { TSqlSourceKind } from '@tessera/core/contracts/data-sources';

export interface RoutineParameter {
  name: string;
  mode: 'in' | 'out' | 'inout';
  type: TFactoryType;
  /** The value bound for IN and INOUT (ignored for OUT). */
  value: unknown;
}

export interface RoutineCall {
  routine: TRoutine;
  /** In the routine's declaration order: calls pass them by position (SQL Server: by name). */
  parameters: RoutineParameter[];
  /** A PostgreSQL function's rows are capped in the database at this; other answers after they arrive. */
  limit: number;
}

export interface Statement {
  sql: string;
  values: unknown[];
}

const quoted = {
  postgres: (name: string) => `"${name.replace(/"/g, '""')}"`,
  mysql: (name: string) => `\`${name.replace(/`/g, '``')}\``,
  mssql: (name: string) => `[${name.replace(/]/g, ']]')}]`,
} satisfies Record<TSqlSourceKind, (name: string) => string>;

const qualified = (kind: TSqlSourceKind, r: TRoutine) => `${quoted[kind](r.schema)}.${quoted[kind](r.name)}`;
const takesValue = (p: RoutineParameter) => p.mode !== 'out';
const answers = (p: RoutineParameter) => p.mode !== 'in';

// ---------------------------------------------------------------- MySQL / MariaDB

/** A session variable per OUT / INOUT parameter, by position (names of the caller never reach the text). */
const mysqlVariable = (i: number) => `@tessera_p${i + 1}`;

/**
 * A procedure: INOUT values set into session variables, `call` with `?` for IN and the variables
 * for the rest, then one `select` of the variables (the OUT values). A function: one `select` of
 * its value (MySQL functions take IN parameters only).
 */
export function mysqlCall(call: RoutineCall): { setup: Statement[]; call: Statement; outs: Statement | null } {
  const name = qualified('mysql', call.routine);
  if (call.routine.kind === 'function') {
    return { setup: [], call: { sql: `select ${name}(${call.parameters.map(() => '?').join(', ')}) as ${quoted.mysql('value')}`, values: call.parameters.map((p) => p.value) }, outs: null };
  }
  const setup = call.parameters.flatMap((p, i) => (p.mode === 'inout' ? [{ sql: `set ${mysqlVariable(i)} = ?`, values: [p.value] }] : p.mode === 'out' ? [{ sql: `set ${mysqlVariable(i)} = null`, values: [] }] : []));
  const args = call.parameters.map((p, i) => (p.mode === 'in' ? '?' : mysqlVariable(i)));
  const outs = call.parameters.flatMap((p, i) => (answers(p) ? [`${mysqlVariable(i)} as ${quoted.mysql(p.name)}`] : []));
  return {
    setup,
    call: { sql: `call ${name}(${args.join(', ')})`, values: call.parameters.filter((p) => p.mode === 'in').map((p) => p.value) },
    outs: outs.length ? { sql: `select ${outs.join(', ')}`, values: [] } : null,
  };
}

// ---------------------------------------------------------------- PostgreSQL

/**
 * A procedure: `call` with every IN / INOUT value cast to its type and NULL for the OUT ones
 * (PostgreSQL 14 and later take OUT arguments so); its one row holds the OUT and INOUT values. A
 * function: `select * from` it, capped; with OUT parameters its one row is their values.
 */
export function postgresCall(call: RoutineCall): Statement {
  const name = qualified('postgres', call.routine);
  const values: unknown[] = [];
  const args = call.parameters.map((p) => {
    if (!takesValue(p)) return call.routine.kind === 'procedure' ? `cast(null as ${FACTORY_TYPES[p.type]})` : null;
    values.push(p.value);
    return `cast($${values.length} as ${FACTORY_TYPES[p.type]})`;
  });
  const list = args.filter((a) => a !== null).join(', ');
  if (call.routine.kind === 'procedure') return { sql: `call ${name}(${list})`, values };
  return { sql: `select * from ${name}(${list}) limit ${Math.max(0, Math.trunc(call.limit))}`, values };
}

// ---------------------------------------------------------------- SQL Server

/** `@p1` … by position: the names tedious binds; the routine's own names are checked (letters, digits, _). */
export const mssqlParameter = (i: number) => `p${i + 1}`;

/**
 * A procedure: `exec` with each parameter by its own name, OUT and INOUT as `output` (their values
 * come back as tedious's return values). A table-valued function: its rows selected, capped with
 * `top`; a scalar one: a `select` of its value.
 */
export function mssqlCall(call: RoutineCall): Statement {
  const name = qualified('mssql', call.routine);
  const values = call.parameters.map((p) => (takesValue(p) ? p.value : null));
  const args = call.parameters.map((_, i) => `@${mssqlParameter(i)}`).join(', ');
  if (call.routine.kind === 'function' && call.routine.returnsTable) return { sql: `select top (${Math.max(0, Math.trunc(call.limit))}) * from ${name}(${args})`, values };
  if (call.routine.kind === 'function') return { sql: `select ${name}(${args}) as [value]`, values };
  const named = call.parameters.map((p, i) => `@${p.name} = @${mssqlParameter(i)}${answers(p) ? ' output' : ''}`);
  return { sql: `exec ${name}${named.length ? ` ${named.join(', ')}` : ''}`, values };
}

// ---------------------------------------------------------------- catalogue

const MAX_ROUTINES = 2_000;

/**
 * One row per parameter (a routine without any: one row of nulls), routines in name order: schema,
 * name, kind ('procedure' | 'function' in any case), parameter name, mode, type, what tells
 * overloads apart (PostgreSQL's oid, the others' specific name), and 1 for a function answering rows.
 */
export function routinesSql(kind: TSqlSourceKind): string {
  switch (kind) {
    case 'mysql':
      // The source's database; position 0 is a function's return value.
      return `select r.ROUTINE_SCHEMA, r.ROUTINE_NAME, r.ROUTINE_TYPE, p.PARAMETER_NAME, p.PARAMETER_MODE, p.DTD_IDENTIFIER, r.SPECIFIC_NAME, 0
        from information_schema.ROUTINES r
        left join information_schema.PARAMETERS p on p.SPECIFIC_SCHEMA = r.ROUTINE_SCHEMA and p.SPECIFIC_NAME = r.ROUTINE_NAME and p.ROUTINE_TYPE = r.ROUTINE_TYPE and p.ORDINAL_POSITION > 0
        where r.ROUTINE_SCHEMA = database()
        order by r.ROUTINE_NAME, r.ROUTINE_TYPE, p.ORDINAL_POSITION
        limit ${MAX_ROUTINES * 10}`;
    case 'postgres':
      // Functions and procedures outside the catalogues and extensions, not triggers; the columns of
      // `returns table` (mode t) are results, not parameters; variadic ones are IN.
      return `select n.nspname, p.proname, case p.prokind when 'p' then 'procedure' else 'function' end, a.name, case a.mode when 'o' then 'out' when 'b' then 'inout' else 'in' end, format_type(a.type, null), p.oid::text, case when p.proretset then 1 else 0 end
        from pg_proc p
        join pg_namespace n on n.oid = p.pronamespace
        left join lateral (
          select t.type, t.i, coalesce(p.proargnames[t.i], '') as name, coalesce(p.proargmodes[t.i], 'i') as mode
          from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality as t(type, i)
        ) a on a.mode <> 't'
        where p.prokind in ('f', 'p') and p.prorettype <> 'trigger'::regtype
          and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
          and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
        order by n.nspname, p.proname, p.oid, a.i
        limit ${MAX_ROUTINES * 10}`;
    case 'mssql':
      return `select top ${MAX_ROUTINES * 10} r.ROUTINE_SCHEMA, r.ROUTINE_NAME, r.ROUTINE_TYPE, p.PARAMETER_NAME, p.PARAMETER_MODE, p.DATA_TYPE, r.SPECIFIC_NAME, case when r.DATA_TYPE = 'TABLE' then 1 else 0 end
        from INFORMATION_SCHEMA.ROUTINES r
        left join INFORMATION_SCHEMA.PARAMETERS p on p.SPECIFIC_SCHEMA = r.SPECIFIC_SCHEMA and p.SPECIFIC_NAME = r.SPECIFIC_NAME and p.ORDINAL_POSITION > 0
        order by r.ROUTINE_SCHEMA, r.ROUTINE_NAME, p.ORDINAL_POSITION`;
  }
}

/** The catalogue's rows as routines with their parameters (a parameter without a name is called `p<n>`; SQL Server's `@` dropped). */
export function routinesOf(rows: unknown[][]): TSourceRoutine[] {
  const routines: TSourceRoutine[] = [];
  let last: TSourceRoutine | undefined;
  let lastKey = '';
  for (const [schema, name, kind, parameter, mode, type, specific, returnsTable] of rows) {
    const key = `${String(schema)}\u0000${String(specific)}\u0000${String(kind)}`;
    if (!last || key !== lastKey) {
      if (routines.length >= MAX_ROUTINES) break;
      const isProcedure = String(kind).toLowerCase() === 'procedure';
      last = { schema: String(schema), name: String(name), kind: isProcedure ? 'procedure' : 'function', returnsTable: !isProcedure && Number(returnsTable ?? 0) === 1, parameters: [] };
      lastKey = key;
      routines.push(last);
    }
    if (type === null || type === undefined) continue;
    const m = String(mode ?? 'in').toLowerCase();
    last.parameters.push({
      name: String(parameter ?? '').replace(/^@/, '') || `p${last.parameters.length + 1}`,
      mode: m === 'out' ? 'out' : m === 'inout' ? 'inout' : 'in',
      type: factoryTypeOf(String(type)),
      sourceType: String(type),
    });
  }
  return routines;
}
