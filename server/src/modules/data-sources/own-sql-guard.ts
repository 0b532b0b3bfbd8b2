/*
 * What a query of the product's own database (a source of kind `own`) may be, decided on
 * PostgreSQL's own parse tree (libpg-query, the server's parser compiled to WebAssembly) before it
 * runs: one SELECT (set operations, WITH, sub-queries, joins, VALUES), reading only the views of
 * published pages (schema `biz_views`) and the WITH queries in scope, calling only the functions of
 * an allow-list (aggregates, window functions, text, numbers, dates, JSON), casting only to plain
 * types. Anything else — another table (the product's users, sessions, the `biz` tables), a
 * catalogue, `SELECT INTO`, `FOR UPDATE`, a data-modifying WITH, a function not listed
 * (`set_config`, `pg_read_file`, `query_to_xml`, `pg_sleep`, the data factory's) — is refused
 * with the reason. It is an allow-list: a construct it does not know is refused, never let through.
 * The query then runs in a read-only transaction with the views schema as its search path.
 */
import { loadModule, parseSync } from 'libpg-query';
import { OWN_VIEWS_SCHEMA } from '@tessera/core/contracts/data-sources';

export type OwnSqlRefusal = { code: 'syntax' | 'notSelect' | 'notView' | 'function' | 'type' | 'construct'; subject: string };

let ready: Promise<void> | null = null;
/** Loads the parser (once per process). */
export const loadSqlParser = () => (ready ??= loadModule());

/** Aggregates, window functions and scalar functions without side effects or access to anything but their arguments. */
const FUNCTIONS = new Set(
  `count sum avg min max string_agg array_agg bool_and bool_or every json_agg jsonb_agg json_object_agg jsonb_object_agg
   stddev stddev_pop stddev_samp variance var_pop var_samp percentile_cont percentile_disc mode corr covar_pop covar_samp
   row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value
   lower upper length char_length character_length octet_length substring substr trim btrim ltrim rtrim replace concat concat_ws
   left right lpad rpad position strpos split_part initcap reverse repeat translate starts_with overlay
   regexp_replace regexp_match regexp_matches regexp_split_to_array regexp_like regexp_count regexp_substr to_char to_number format md5
   abs round ceil ceiling floor trunc mod power sqrt cbrt sign div exp ln log log10 pi width_bucket greatest least random
   now current_timestamp clock_timestamp statement_timestamp transaction_timestamp date_trunc date_part extract age timezone
   to_date to_timestamp make_date make_time make_timestamp make_timestamptz make_interval justify_days justify_hours justify_interval isfinite date_bin
   jsonb_extract_path jsonb_extract_path_text json_extract_path json_extract_path_text jsonb_array_elements jsonb_array_elements_text
   json_array_elements json_array_elements_text jsonb_array_length json_array_length jsonb_typeof json_typeof jsonb_each jsonb_each_text
   jsonb_object_keys to_jsonb to_json jsonb_build_object json_build_object jsonb_build_array json_build_array jsonb_strip_nulls
   array_length array_to_string string_to_array cardinality array_position array_positions array_remove array_append array_cat unnest
   generate_series coalesce nullif num_nulls num_nonnulls version gen_random_uuid`.split(/\s+/),
);

const TYPES = new Set(
  `text varchar bpchar char int2 int4 int8 smallint integer int bigint numeric decimal float4 float8 real bool boolean
   date time timetz timestamp timestamptz interval uuid json jsonb`.split(/\s+/),
);

const CLOCKS = new Set(['SVFOP_CURRENT_DATE', 'SVFOP_CURRENT_TIME', 'SVFOP_CURRENT_TIME_N', 'SVFOP_CURRENT_TIMESTAMP', 'SVFOP_CURRENT_TIMESTAMP_N', 'SVFOP_LOCALTIME', 'SVFOP_LOCALTIME_N', 'SVFOP_LOCALTIMESTAMP', 'SVFOP_LOCALTIMESTAMP_N']);

/** Parse-tree nodes whose every part is checked by walking it (the rest are handled by name below, or refused). */
const PLAIN_NODES = new Set([
  'ResTarget', 'ColumnRef', 'String', 'A_Star', 'A_Const', 'Integer', 'Float', 'Boolean', 'BitString', 'ParamRef', 'BoolExpr',
  'NullTest', 'BooleanTest', 'SubLink', 'RangeSubselect', 'RangeFunction', 'JoinExpr', 'SortBy', 'CaseExpr', 'CaseWhen',
  'CoalesceExpr', 'MinMaxExpr', 'A_ArrayExpr', 'A_Indirection', 'A_Indices', 'RowExpr', 'GroupingSet', 'GroupingFunc', 'WindowDef',
  'List', 'CollateClause', 'Alias', 'NamedArgExpr',
]);

class Refused extends Error {
  constructor(readonly refusal: OwnSqlRefusal) {
    super(refusal.subject);
  }
}
const refuse = (code: OwnSqlRefusal['code'], subject: string): never => {
  throw new Refused({ code, subject });
};

type Node = Record<string, unknown>;
const strings = (list: unknown): string[] => (Array.isArray(list) ? list.map((n) => String((n as { String?: { sval?: string } }).String?.sval ?? '')) : []);

/** A name of pg_catalog's (written plainly or as `pg_catalog.name`), else refused as `code`. */
function catalogName(names: string[], code: 'function' | 'type' | 'construct'): string {
  const shown = names.join('.');
  if (names.length === 2 && names[0] === 'pg_catalog') return names[1]!.toLowerCase();
  if (names.length !== 1) refuse(code, shown);
  return names[0]!.toLowerCase();
}

class Walker {
  constructor(private readonly views: ReadonlySet<string>) {}

  any(value: unknown, scope: ReadonlySet<string>): void {
    if (Array.isArray(value)) {
      for (const item of value) this.any(item, scope);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const keys = Object.keys(value);
    if (keys.length === 1 && /^[A-Z]/.test(keys[0]!)) this.node(keys[0]!, (value as Node)[keys[0]!] as Node, scope);
    else this.fields(value as Node, scope);
  }

  private fields(node: Node, scope: ReadonlySet<string>, skip: readonly string[] = []): void {
    for (const [key, value] of Object.entries(node)) if (!skip.includes(key)) this.any(value, scope);
  }

  private node(type: string, node: Node, scope: ReadonlySet<string>): void {
    switch (type) {
      case 'SelectStmt':
        return this.select(node, scope);
      case 'RangeVar':
        return this.relation(node, scope);
      case 'FuncCall': {
        const name = catalogName(strings(node.funcname), 'function');
        if (!FUNCTIONS.has(name)) refuse('function', strings(node.funcname).join('.'));
        return this.fields(node, scope, ['funcname']);
      }
      case 'TypeCast': {
        this.castType(node.typeName as Node | undefined);
        return this.fields(node, scope, ['typeName']);
      }
      case 'A_Expr': {
        // An operator written OPERATOR(schema.op) must be pg_catalog's.
        catalogName(strings(node.name), 'construct');
        return this.fields(node, scope, ['name']);
      }
      case 'SQLValueFunction':
        if (!CLOCKS.has(String(node.op))) refuse('function', String(node.op).replace(/^SVFOP_/, '').replace(/_N$/, '').toLowerCase());
        return;
      default:
        if (!PLAIN_NODES.has(type)) refuse('construct', type);
        return this.fields(node, scope);
    }
  }

  private castType(typeName: Node | undefined): void {
    const names = strings(typeName?.names);
    const name = catalogName(names, 'type');
    if (!TYPES.has(name)) refuse('type', names.join('.'));
  }

  /** A SELECT (or one arm of a set operation) with its WITH queries in scope: a WITH query sees those before it, all of them when recursive. */
  private select(node: Node, outer: ReadonlySet<string>): void {
    if (node.intoClause) refuse('construct', 'SELECT INTO');
    if (node.lockingClause) refuse('construct', 'FOR UPDATE / FOR SHARE');
    let scope = new Set(outer);
    const withClause = node.withClause as { ctes?: { CommonTableExpr?: Node }[]; recursive?: boolean } | undefined;
    if (withClause) {
      const ctes = (withClause.ctes ?? []).map((c) => c.CommonTableExpr ?? refuse('construct', 'WITH'));
      if (withClause.recursive) for (const cte of ctes) scope.add(String(cte.ctename));
      for (const cte of ctes) {
        const query = cte.ctequery as Node | undefined;
        if (!query || !('SelectStmt' in query)) refuse('construct', `WITH ${String(cte.ctename)} (${Object.keys(query ?? {})[0] ?? '?'})`);
        this.fields(cte, scope);
        scope = new Set(scope).add(String(cte.ctename));
      }
    }
    for (const arm of ['larg', 'rarg'] as const) if (node[arm]) this.select(node[arm] as Node, scope);
    this.fields(node, scope, ['withClause', 'larg', 'rarg']);
  }

  private relation(node: Node, scope: ReadonlySet<string>): void {
    const name = String(node.relname ?? '');
    const schema = node.schemaname == null ? null : String(node.schemaname);
    const shown = [node.catalogname, schema, name].filter((p) => p != null).join('.');
    if (node.catalogname != null) refuse('notView', shown);
    if (schema === null ? !scope.has(name) && !this.views.has(name) : schema !== OWN_VIEWS_SCHEMA || !this.views.has(name)) refuse('notView', shown);
    this.fields(node, scope, ['relname', 'schemaname']);
  }
}

/**
 * Why the product's own database may not run `sql`, or null when it may. `views`: the names of the
 * views in `biz_views` now. Call `loadSqlParser()` once before.
 */
export function ownSqlRefusal(sql: string, views: ReadonlySet<string>): OwnSqlRefusal | null {
  let tree: { stmts?: { stmt?: Node }[] };
  try {
    tree = parseSync(sql) as typeof tree;
  } catch (error) {
    return { code: 'syntax', subject: (error as Error).message };
  }
  const statements = tree.stmts ?? [];
  const only = statements[0]?.stmt;
  if (statements.length !== 1 || !only || !('SelectStmt' in only)) return { code: 'notSelect', subject: Object.keys(only ?? {})[0] ?? '' };
  try {
    new Walker(views).any(only, new Set());
    return null;
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
}
