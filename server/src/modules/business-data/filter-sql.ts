import { sql, type RawBuilder } from 'kysely';
import { LIST_SYSTEM_COLUMNS } from '@tessera/core/contracts/business-data';
import { ControlTypeId } from '@tessera/core/controls/registry';
import type { FilterConditionNode, FilterField, FilterNode, FilterScalar } from '@tessera/core/filters/index';
import { isTimeInDateRange, MAX_DATE_MS, MIN_DATE_MS } from '@tessera/core/helpers/iso-date';
import { bizTable, ident } from '../pages/index.ts';
import { FILE_TYPES, isDateOnly, LIST_TYPES } from './record-values.ts';
import type { RuntimeControl, RuntimeView } from './runtime-page.ts';

/*
 * The SQL back end of the core filter tree (packages/core/src/filters): every operand is a bound
 * parameter, every column an allow-listed control code quoted by `ident`. Mirrors the JavaScript
 * predicate (`compileFilterPredicate`) exactly — the differential test runs both on the same rows:
 *   - empty = NULL, '' or an empty list; positive operators never match an empty value, negative
 *     ones (ne, notContains, notIn) always do;
 *   - text eq/ne/in and ordering are case-sensitive code-point comparisons (COLLATE "C");
 *     contains/startsWith/endsWith compare lower-cased text;
 *   - list controls (1008/1009) compare their values joined with ',' (as the predicate does);
 *   - date-only controls hold UTC midnight; the predicate reads them at the user's offset, so the
 *     operands are shifted by that offset instead (the column stays indexable).
 * Comparisons on plain columns keep the bare column on the left so indexes apply.
 */

export interface SqlField extends FilterField {
  control: RuntimeControl;
  /** A uuid system column (creator, modifier), compared as its text. */
  uuidText?: boolean;
  /**
   * A field of a view below the filtered one (code `Lines.Product`): the views from the filtered
   * view's child down to the field's view. A condition on it holds when some row there, under the
   * filtered row, matches ("orders having a line with product X"); each condition is its own EXISTS.
   */
  via?: readonly RuntimeView[];
}

/** Filter fields of the views below `view` (`<view code>.<control code>`), from each view's visible controls. */
export function belowFilterFields(view: RuntimeView, visibleOf: (v: RuntimeView) => readonly RuntimeControl[]): SqlField[] {
  const out: SqlField[] = [];
  const walk = (v: RuntimeView, via: readonly RuntimeView[]) => {
    for (const child of v.children) {
      const chain = [...via, child];
      for (const c of visibleOf(child)) out.push({ code: `${child.code}.${c.code}`, tableFieldType: c.tableFieldType, control: c, via: chain });
      walk(child, chain);
    }
  };
  walk(view, []);
  return out;
}

/** `exists` over the rows below `outer` on the field's chain of views, the condition on the last. */
function existsBelow(node: FilterConditionNode, field: SqlField, outer: string, offsetMinutes: number): RawBuilder<unknown> {
  const via = field.via!;
  const own: SqlField = { code: field.control.code, tableFieldType: field.tableFieldType, control: field.control };
  const level = (i: number, parent: string): RawBuilder<unknown> => {
    const alias = `below${i}`;
    const inner = i === via.length - 1 ? condition(node, own, alias, offsetMinutes) : level(i + 1, alias);
    return sql`exists (select 1 from ${bizTable(via[i]!.table)} as ${ident(alias)} where ${ident(alias)}."ParentViewDataId" = ${ident(parent)}."Id" and ${ident(alias)}."IsDeleted" = false and ${inner})`;
  };
  return level(0, outer);
}

export const filterFieldsOf = (controls: readonly RuntimeControl[]): SqlField[] =>
  controls.map((c) => ({ code: c.code, tableFieldType: c.tableFieldType, control: c }));

/**
 * The system columns every view's table has, as filter fields: creator and modifier (user ids),
 * creation and modification time, and the approval status (an integer).
 */
export const SYSTEM_FILTER_FIELDS: readonly SqlField[] = LIST_SYSTEM_COLUMNS.map(({ code, kind }) => {
  const time = kind === 'time';
  const status = kind === 'status';
  const controlType = time ? ControlTypeId.Date : status ? ControlTypeId.Integer : ControlTypeId.Text;
  const control: RuntimeControl = {
    control: { id: `system:${code}`, code, title: code, controlType, isDisplayed: true, isEdit: false, extraProperties: time ? { dateType: 3 } : {} },
    code,
    controlType,
    tableFieldType: time ? 4 : status ? 2 : 1,
    formulaComputed: false,
  };
  return { code, tableFieldType: control.tableFieldType, control, uuidText: kind === 'user' };
});

type Shape = 'text' | 'expr' | 'plain';

function columnOf(field: SqlField, alias: string | null): { expr: RawBuilder<unknown>; shape: Shape } {
  const col = alias ? sql`${ident(alias)}.${ident(field.code)}` : ident(field.code);
  if (field.uuidText) return { expr: sql`${col}::text`, shape: 'expr' };
  const c = field.control;
  if (c.tableFieldType === 1 && LIST_TYPES.has(c.controlType)) {
    return {
      expr: sql`(select string_agg(e, ',' order by o) from jsonb_array_elements_text(case when jsonb_typeof(pages_try_jsonb(${col})) = 'array' then pages_try_jsonb(${col}) else '[]'::jsonb end) with ordinality as t(e, o))`,
      shape: 'expr',
    };
  }
  if (c.tableFieldType === 1 && FILE_TYPES.has(c.controlType)) {
    // Attachments and images filter on their files' names ("contains", "is empty": no file).
    return {
      expr: sql`(select string_agg(e ->> 'name', ', ' order by o) from jsonb_array_elements(case when jsonb_typeof(pages_try_jsonb(${col})) = 'array' then pages_try_jsonb(${col}) else '[]'::jsonb end) with ordinality as t(e, o))`,
      shape: 'expr',
    };
  }
  if (c.tableFieldType === 1) return { expr: col, shape: 'text' };
  if (c.tableFieldType === 6) return { expr: sql`nullif(${col} #>> '{}', '')`, shape: 'expr' };
  return { expr: col, shape: 'plain' };
}

function operand(field: SqlField, v: FilterScalar, offsetMinutes: number): RawBuilder<unknown> {
  switch (field.tableFieldType) {
    case 2:
      return sql`${Number(v)}::bigint`;
    case 3:
      return sql`${String(v)}::numeric`;
    case 4: {
      // Date-only values are UTC midnights read at the user's offset: shift the operand instead.
      const t = Date.parse(String(v)) + (isDateOnly(field.control) ? offsetMinutes * 60_000 : 0);
      if (isTimeInDateRange(t)) return sql`${new Date(t).toISOString()}::timestamptz`;
      // The parser refuses dates outside the years 1–9999 (after the offset); a tree from elsewhere
      // may still shift past an end. ISO text cannot say such an instant to PostgreSQL, epoch
      // seconds can — kept within a week of the range, where no stored value lies anyway.
      if (Number.isNaN(t)) throw new Error('Filter date operand is not a date');
      const week = 7 * 86_400_000;
      return sql`to_timestamp(${Math.min(Math.max(t, MIN_DATE_MS - week), MAX_DATE_MS + week) / 1000}::double precision)`;
    }
    case 5:
      return sql`${v === true}::boolean`;
    default:
      return sql`${String(v)}::text`;
  }
}

const TRUE = sql`true`;
const FALSE = sql`false`;

function condition(node: FilterConditionNode, field: SqlField, alias: string | null, offsetMinutes: number): RawBuilder<unknown> {
  const { expr, shape } = columnOf(field, alias);
  const isText = shape !== 'plain';
  // For text columns `v` is the value with '' read as empty.
  const v = shape === 'text' ? sql`nullif(${expr}, '')` : expr;
  const notEmpty = shape === 'text' ? sql`(${expr} is not null and ${expr} <> '')` : sql`${expr} is not null`;
  const ops = node.operands;
  const op = (x: FilterScalar) => operand(field, x, offsetMinutes);
  const cmp = (o: string, x: FilterScalar) => (isText ? sql`${v} collate "C" ${sql.raw(o)} ${op(x)}` : sql`${expr} ${sql.raw(o)} ${op(x)}`);
  const lower = (x: FilterScalar) => sql`lower(${op(x)})`;
  switch (node.operator) {
    case 'isEmpty':
      return sql`not (${notEmpty})`;
    case 'isNotEmpty':
      return notEmpty;
    case 'eq':
      if (shape === 'text') return ops[0] === '' ? FALSE : sql`${expr} = ${op(ops[0])}`;
      return cmp('=', ops[0]);
    case 'ne':
      return sql`(not (${notEmpty}) or ${cmp('<>', ops[0])})`;
    case 'gt':
      return cmp('>', ops[0]);
    case 'ge':
      return cmp('>=', ops[0]);
    case 'lt':
      return cmp('<', ops[0]);
    case 'le':
      return cmp('<=', ops[0]);
    case 'between':
      return sql`(${cmp('>=', ops[0])} and ${cmp('<=', ops[1])})`;
    case 'contains':
      return sql`strpos(lower(${v}), ${lower(ops[0])}) > 0`;
    case 'notContains':
      return sql`(not (${notEmpty}) or strpos(lower(${v}), ${lower(ops[0])}) = 0)`;
    case 'startsWith':
      return sql`starts_with(lower(${v}), ${lower(ops[0])})`;
    case 'endsWith':
      return sql`right(lower(${v}), char_length(${lower(ops[0])})) = ${lower(ops[0])}`;
    case 'in':
    case 'notIn': {
      const list = isText ? ops.filter((x) => x !== '') : ops;
      const inList = list.length === 0 ? FALSE : shape === 'text' ? sql`${expr} in (${sql.join(list.map(op))})` : sql`${expr} in (${sql.join(list.map(op))})`;
      return node.operator === 'in' ? sql`(${notEmpty} and ${inList})` : sql`(not (${notEmpty}) or not ${inList})`;
    }
  }
}

/**
 * Compiles a validated filter tree (fields from `filterFieldsOf`) to a boolean SQL expression.
 * `alias` qualifies the columns when the table is aliased.
 */
export function compileFilterSql(tree: FilterNode, fields: readonly SqlField[], options: { alias?: string | null; offsetMinutes?: number } = {}): RawBuilder<unknown> {
  const byCode = new Map(fields.map((f) => [f.code, f]));
  const offset = options.offsetMinutes ?? 0;
  const build = (node: FilterNode): RawBuilder<unknown> => {
    if (node.kind === 'condition') {
      const field = byCode.get(node.field);
      // The parser only lets allow-listed fields through; this is defence in depth.
      if (!field) throw new Error(`Filter field not allowed: ${node.field}`);
      if (field.via?.length) {
        if (!options.alias) throw new Error('A filter on the views below needs the table alias');
        return existsBelow(node, field, options.alias, offset);
      }
      return condition(node, field, options.alias ?? null, offset);
    }
    if (node.children.length === 0) return TRUE;
    const parts = node.children.map((child) => sql`(${build(child)})`);
    return sql.join(parts, sql.raw(node.link === 'and' ? ' and ' : ' or '));
  };
  return sql`(${build(tree)})`;
}
