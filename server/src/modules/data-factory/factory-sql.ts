import { randomBytes } from 'node:crypto';
import { FACTORY_TYPES, type TProcedureDefinition, type TFactoryType } from '@tessera/core/contracts/data-factory';
import { sql, type RawBuilder } from 'kysely';

/*
 * The SQL of the functions themselves (schema `factory`). Names are quoted identifiers
 * (`sql.id`); types come from the allow-list FACTORY_TYPES; values are bound. The body is the one
 * text of the author's that reaches a statement as text: inside a dollar-quoted string whose tag
 * does not occur in it, so nothing in it can end the string (a dollar-quoted string has no escapes).
 */

export const FACTORY_SCHEMA = 'factory';
export const FACTORY_ROLE = 'tessera_factory';

const typeSql = (type: TFactoryType) => sql.raw(FACTORY_TYPES[type]);

/** A `$tag$` whose name is nowhere in the body: no `$name$` can then be formed inside it or across its end. */
export function dollarQuoted(body: string): RawBuilder<unknown> {
  let name: string;
  do name = `fn_${randomBytes(8).toString('hex')}`;
  while (body.includes(name));
  return sql.raw(`$${name}$${body}$${name}$`);
}

export const functionRef = (code: string) => sql.id(FACTORY_SCHEMA, code);

/**
 * `create function factory."code"(…) returns … language plpgsql security invoker`, with a search
 * path of the factory's schema and the catalogue (pg_temp last, where PostgreSQL puts nothing first).
 */
export function createFunctionSql(code: string, def: TProcedureDefinition) {
  const params = sql.join(def.parameters.map((p) => sql`${sql.raw(p.mode)} ${sql.id(p.name)} ${typeSql(p.type)}`));
  const hasOut = def.parameters.some((p) => p.mode === 'out');
  const returns =
    def.returns.kind === 'table'
      ? sql`returns table (${sql.join(def.returns.columns.map((c) => sql`${sql.id(c.name)} ${typeSql(c.type)}`))})`
      : hasOut
        ? sql``
        : sql`returns void`;
  return sql`create function ${functionRef(code)} (${def.parameters.length ? params : sql``}) ${returns} language plpgsql volatile security invoker set search_path = factory, pg_catalog, pg_temp as ${dollarQuoted(def.body)}`;
}

/** Every function of that name (there is one: codes are unique). */
export const dropFunctionSql = (code: string) => sql`drop function if exists ${functionRef(code)}`;

/** Values of these types come back as PostgreSQL's own text, not as a JavaScript Date in the node's time zone. */
const AS_TEXT = new Set<TFactoryType>(['date', 'timestamp']);
const selected = (name: string, type: TFactoryType) => (AS_TEXT.has(type) ? sql`${sql.id(name)}::text as ${sql.id(name)}` : sql.id(name));

/**
 * The call: IN values bound as text and cast to their declared types (named notation), rows of a
 * table capped in the database at `limit`, OUT parameters as the one row of a record.
 */
export function callSql(code: string, def: TProcedureDefinition, values: Record<string, string | null>, limit: number) {
  const args = def.parameters.filter((p) => p.mode === 'in').map((p) => sql`${sql.id(p.name)} => cast(${values[p.name] ?? null} as ${typeSql(p.type)})`);
  const call = sql`${functionRef(code)}(${sql.join(args.length ? args : [sql``])})`;
  const outs = def.parameters.filter((p) => p.mode === 'out');
  if (def.returns.kind === 'table') {
    return sql`select ${sql.join(def.returns.columns.map((c) => selected(c.name, c.type)))} from ${call} limit ${limit}`;
  }
  if (outs.length) return sql`select ${sql.join(outs.map((p) => selected(p.name, p.type)))} from ${call}`;
  return sql`select ${call} is null as ${sql.id('done')}`;
}
