/**
 * Filter conditions → Kysely `WHERE` expression (the SQL back end of packages/core/src/filters).
 *
 *   compileFilter(input, allowList, options?) → CompileFilterResult
 *
 *   input      the spec's flat filter/join condition list (`{ key, judgmentMethod, value,
 *              leftBracket, rightBracket, linkCondition, sortNo, isSys }[]`), or a tree from
 *              `parseFilterConditions` (`{ kind: 'group', … }`), or null/undefined (no filter).
 *              A tree is re-validated: it may have been stored or sent by a client.
 *   allowList  the view's filterable columns: `{ code, tableFieldType, column? }[]`. `code` is the
 *              key conditions use; `column` the physical column (default: `code`), or
 *              `expression` a server-built SQL expression. Only these identifiers ever reach the
 *              SQL text, quoted by Kysely (`sql.id`).
 *   options    `table`: qualifier for the columns (`"t"."col"`, for joins); `now` + `offsetMinutes`:
 *              clock and user zone for date shortcuts and date-only values (as in the core parser);
 *              `path`: property path used in error members (default `filterConditions`).
 *
 *   → `{ ok: true, where, tree }` — `where` is an `Expression<SqlBool>` for `.where(where)`; every
 *     value is a bound parameter with an explicit cast. An empty list gives `true`.
 *   → `{ ok: false, errors }` — `[{ message, members }]`, the API's `validationErrors` items (unknown
 *     key, operator not allowed for the field type, value of the wrong type, unbalanced brackets,
 *     bad allow-list entry…). Never throws for bad input.
 *
 * Example (business data list):
 *   const f = compileFilter(body.filterConditions, viewColumns, { now: new Date(), offsetMinutes });
 *   if (!f.ok) return reply.code(400).send(validationFailed(f.errors));
 *   const rows = await db.selectFrom(sql.table(`biz.${table}`).as('t')).selectAll().where(f.where).execute();
 *
 * Semantics are exactly those of the JavaScript predicate (`compileFilterPredicate`), checked by the
 * differential test (filter-compiler.test.ts, PGlite and PostgreSQL):
 *   - empty = NULL or '' (text) / NULL, '', '[]' (id columns); positive operators never match an
 *     empty value, `ne`/`notContains`/`notIn` do;
 *   - text `eq`/`ne`/`in`/`notIn` case-sensitive; `contains`/`startsWith`/`endsWith`/`notContains`
 *     are `ILIKE` with `\`, `%`, `_` escaped in the bound pattern; text ordering is `COLLATE "C"`
 *     (code point order);
 *   - id columns (type 6: uuid or text) compare as text (`col::text`).
 */
import { parseFilterConditions, validateFilterTree } from '@tessera/core/filters/index';
import type { FilterConditionNode, FilterField, FilterGroupNode, FilterNode, FilterScalar, FilterValidationError } from '@tessera/core/filters/index';
import type { TableFieldType } from '@tessera/core/page-definition';
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

export interface FilterColumn extends FilterField {
  /** Physical column name; defaults to `code`. */
  column?: string;
  /**
   * Server-built SQL expression to filter on instead of the column (for derived values, e.g. a
   * JSON list stored as text joined with ','). Trusted code only — never built from request text;
   * `column` and `table` are then ignored for this entry.
   */
  expression?: Expression<unknown>;
}

export interface CompileFilterOptions {
  /** Table alias / name the columns are qualified with. */
  table?: string;
  now?: Date;
  offsetMinutes?: number;
  path?: string;
}

export type CompileFilterResult =
  | { ok: true; where: Expression<SqlBool>; tree: FilterGroupNode }
  | { ok: false; errors: FilterValidationError[] };

/** PostgreSQL truncates identifiers at 63 bytes; longer ones could silently collide. */
const MAX_IDENTIFIER_BYTES = 63;

const CAST: Record<TableFieldType, RawBuilder<unknown>> = {
  1: sql.raw('text'),
  2: sql.raw('bigint'),
  3: sql.raw('numeric'),
  4: sql.raw('timestamptz'),
  5: sql.raw('boolean'),
  6: sql.raw('text'),
};

function identifierProblem(name: unknown): string | null {
  if (typeof name !== 'string' || name === '') return 'must be non-empty text';
  if (name.includes('\u0000')) return 'must not contain NUL characters';
  if (new TextEncoder().encode(name).length > MAX_IDENTIFIER_BYTES) return `must be at most ${MAX_IDENTIFIER_BYTES} bytes`;
  return null;
}

function checkAllowList(allowList: readonly FilterColumn[], options: CompileFilterOptions): FilterValidationError[] {
  const errors: FilterValidationError[] = [];
  if (!Array.isArray(allowList)) return [{ message: 'The allow-list must be a list of columns', members: ['allowList'] }];
  const codes = new Set<string>();
  allowList.forEach((c, i) => {
    const at = `allowList[${i}]`;
    const codeProblem = typeof c?.code === 'string' && c.code !== '' ? null : 'must be non-empty text';
    if (codeProblem) errors.push({ message: `Column code ${codeProblem}`, members: [`${at}.code`] });
    else if (codes.has(c.code)) errors.push({ message: `Column code "${c.code.slice(0, 64)}" is listed twice`, members: [`${at}.code`] });
    else codes.add(c.code);
    const columnProblem = c?.expression ? null : identifierProblem(c?.column ?? c?.code);
    if (columnProblem) errors.push({ message: `Column name ${columnProblem}`, members: [`${at}.column`] });
    if (![1, 2, 3, 4, 5, 6].includes(c?.tableFieldType)) errors.push({ message: 'Unknown table field type', members: [`${at}.tableFieldType`] });
  });
  if (options.table !== undefined) {
    const problem = identifierProblem(options.table);
    if (problem) errors.push({ message: `Table name ${problem}`, members: ['table'] });
  }
  return errors;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const TRUE = sql<SqlBool>`true`;
const FALSE = sql<SqlBool>`false`;

function compileCondition(c: FilterConditionNode, column: Expression<unknown>): RawBuilder<SqlBool> {
  const type = c.fieldType;
  const cast = CAST[type];
  const param = (v: FilterScalar) => sql`cast(${v} as ${cast})`;
  const list = () => sql.join(c.operands.map(param));
  const [a, b] = c.operands;
  // Column as compared: ids as text; '' (and '[]' for ids) count as empty like NULL.
  const text = type === 6 ? sql`${column}::text` : column;
  const emptyCheck =
    type === 1 ? sql<SqlBool>`(${column} is null or ${column} = '')`
    : type === 6 ? sql<SqlBool>`(${column} is null or ${text} in ('', '[]'))`
    : sql<SqlBool>`${column} is null`;
  const value = type === 1 ? sql`nullif(${column}, '')` : type === 6 ? sql`nullif(nullif(${text}, ''), '[]')` : column;
  // Text ordering by code point, whatever the database's default collation.
  const ordered = type === 1 ? sql`${value} collate "C"` : value;
  const textual = c.operands.every((o) => typeof o === 'string');
  // With no empty operand, `col = $1` / `col in (…)` need no nullif (and can use an index).
  const plain = textual && c.operands.every((o) => o !== '') ? text : value;
  const like = (pattern: string) => sql<SqlBool>`${value} ilike ${pattern} escape '\\'`;
  switch (c.operator) {
    case 'isEmpty':
      return emptyCheck;
    case 'isNotEmpty':
      return sql<SqlBool>`not ${emptyCheck}`;
    case 'eq':
      return typeof a === 'string' && a === '' && (type === 1 || type === 6) ? FALSE : sql<SqlBool>`${plain} = ${param(a)}`;
    case 'ne':
      return sql<SqlBool>`${value} is distinct from ${param(a)}`;
    case 'gt':
      return sql<SqlBool>`${ordered} > ${param(a)}`;
    case 'ge':
      return sql<SqlBool>`${ordered} >= ${param(a)}`;
    case 'lt':
      return sql<SqlBool>`${ordered} < ${param(a)}`;
    case 'le':
      return sql<SqlBool>`${ordered} <= ${param(a)}`;
    case 'between':
      return sql<SqlBool>`${ordered} between ${param(a)} and ${param(b)}`;
    case 'contains':
      return like(`%${escapeLike(String(a))}%`);
    case 'notContains':
      return sql<SqlBool>`(${value} is null or ${value} not ilike ${`%${escapeLike(String(a))}%`} escape '\\')`;
    case 'startsWith':
      return like(`${escapeLike(String(a))}%`);
    case 'endsWith':
      return like(`%${escapeLike(String(a))}`);
    case 'in':
      return sql<SqlBool>`${plain} in (${list()})`;
    case 'notIn':
      return sql<SqlBool>`(${value} is null or ${value} not in (${list()}))`;
  }
}

function compileNode(node: FilterNode, columnOf: (code: string) => Expression<unknown>): RawBuilder<SqlBool> {
  if (node.kind === 'condition') return compileCondition(node, columnOf(node.field));
  if (node.children.length === 0) return TRUE;
  const parts = node.children.map((child) => compileNode(child, columnOf));
  if (parts.length === 1) return parts[0];
  return sql<SqlBool>`(${sql.join(parts, node.link === 'and' ? sql` and ` : sql` or `)})`;
}

const isTree = (input: unknown): input is FilterGroupNode =>
  typeof input === 'object' && input !== null && !Array.isArray(input) && (input as { kind?: unknown }).kind === 'group';

/** Validates `input` against `allowList` and compiles it to a bound-parameter `WHERE` expression. */
export function compileFilter(input: unknown, allowList: readonly FilterColumn[], options: CompileFilterOptions = {}): CompileFilterResult {
  const path = options.path ?? 'filterConditions';
  const listErrors = checkAllowList(allowList, options);
  if (listErrors.length) return { ok: false, errors: listErrors };
  let tree: FilterGroupNode;
  if (isTree(input)) {
    const errors = validateFilterTree(input, allowList, path);
    if (errors.length) return { ok: false, errors };
    tree = input;
  } else if (input === null || input === undefined || Array.isArray(input)) {
    const parsed = parseFilterConditions(input, allowList, { now: options.now, offsetMinutes: options.offsetMinutes, path });
    if (!parsed.ok) return parsed;
    tree = parsed.tree;
  } else {
    return { ok: false, errors: [{ message: 'Conditions must be a list', members: [path] }] };
  }
  const columns = new Map(allowList.map((c) => [c.code, c]));
  const columnOf = (code: string): Expression<unknown> => {
    const entry = columns.get(code)!;
    if (entry.expression) return sql`(${entry.expression})`;
    const name = entry.column ?? entry.code;
    return options.table === undefined ? sql.id(name) : sql.id(options.table, name);
  };
  return { ok: true, where: compileNode(tree, columnOf), tree };
}
