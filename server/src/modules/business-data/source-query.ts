/*
 * Lookups (1010) and option controls fed by a saved query of a data source
 * (`extraProperties.sourceQuery`, issue 16) instead of a view of a published page or a list of
 * options. The record stores the query's value column; an option control shows its label column, a
 * lookup its display field (`dataSourceTitle`). The query's parameters take fixed values or formulas
 * over the record being edited; join conditions, cascading (`parentCode`) and the window's search
 * run on the source as bound parameters (data-sources: readSourceRows). The lookup window, the
 * drop-down options, the labels of stored values and the save's check that a value is one of the
 * query's all read it here.
 */
import type { TDropDownResult, TOpenWindowResult } from '@tessera/core/contracts/business-data';
import type { TQueryParameterValue } from '@tessera/core/contracts/data-sources';
import { bracketCount, findFilterOperator, linkOf } from '@tessera/core/filters/index';
import { compileFormula, toRecordValue } from '@tessera/core/formula/index';
import type { TSourceQueryRef } from '@tessera/core/page-definition';
import { controlSourceQuery } from '@tessera/core/controls/registry';
import type { ServiceContext } from '../../platform/context.ts';
import { readSourceRows, type SourceCondition } from '../data-sources/index.ts';
import { bizInvalid, type Translate } from './business-data.messages.ts';
import type { RuntimeControl, RuntimeView } from './runtime-page.ts';

type Rec = Record<string, unknown>;
const extraOf = (c: RuntimeControl) => (c.control.extraProperties ?? {}) as Record<string, unknown>;

/** The control's saved query, or null when it reads a page view, options or a dictionary. */
export const sourceQueryOf = (c: RuntimeControl): TSourceQueryRef | null => controlSourceQuery(c.control);

type Actor = Pick<ServiceContext, 'user' | 'now'>;

/** `=formula` over the record (with the caller and the clock), else the text itself. */
export function recordFormulaValue(ctx: Actor, text: unknown, record: Rec | null | undefined, offsetMinutes: number): unknown {
  if (typeof text !== 'string' || !text.startsWith('=')) return text;
  const user = ctx.user;
  const result = compileFormula(text.slice(1)).evaluate({
    row: Object.assign(Object.create(null), record ?? {}) as Rec,
    now: ctx.now(),
    offsetMinutes,
    user: user ? { id: user.id, name: user.name, orgUnitId: user.organizationUnitId, orgUnitName: user.organizationUnitName } : null,
  });
  return toRecordValue(result, offsetMinutes);
}

const scalar = (v: unknown): TQueryParameterValue => (v === null || v === undefined ? null : typeof v === 'number' || typeof v === 'boolean' ? v : Array.isArray(v) ? v.map(String).join(',') : String(v));

/** The query's parameter values for a record: fixed texts, or formulas over the record. */
export function queryParameters(ctx: Actor, ref: TSourceQueryRef, record: Rec | null | undefined, offsetMinutes = 0): Record<string, TQueryParameterValue> {
  const out: Record<string, TQueryParameterValue> = {};
  for (const p of ref.parameters ?? []) out[p.name] = scalar(recordFormulaValue(ctx, p.value, record, offsetMinutes));
  return out;
}

/** The column a lookup shows once picked (its display field), an option control its label column. */
export function titleColumnOf(c: RuntimeControl, ref: TSourceQueryRef): string {
  const title = extraOf(c).dataSourceTitle;
  return ref.labelColumn || (typeof title === 'string' && title ? title : ref.valueColumn);
}

/** Join conditions of the design on the query's columns: all must hold (no brackets or OR on a source). */
function joinConditions(ctx: Actor, c: RuntimeControl, record: Rec | null | undefined, t: Translate, offsetMinutes: number): SourceCondition[] {
  const list = extraOf(c).joinConditions;
  if (!Array.isArray(list)) return [];
  return list.map((entry: Record<string, unknown>, i) => {
    const op = findFilterOperator(entry.judgmentMethod ?? entry.joinConditionMethod ?? 'eq');
    const supported = op && ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'contains', 'notContains', 'startsWith', 'endsWith', 'in', 'isEmpty', 'isNotEmpty'].includes(op.code);
    const grouped = bracketCount(entry.leftBracket, '(') !== 0 || bracketCount(entry.rightBracket, ')') !== 0 || (i > 0 && linkOf(entry.linkCondition) !== 'and');
    if (!supported || grouped || typeof entry.key !== 'string') {
      throw bizInvalid(t, [{ message: t('lookup.sourceCondition', { control: c.code, index: i + 1 }), members: [`joinConditions[${i}]`] }]);
    }
    const value = recordFormulaValue(ctx, entry.value, record, offsetMinutes);
    return { column: entry.key, op: op.code as SourceCondition['op'], value: Array.isArray(value) ? value.map(scalar) : scalar(value) };
  });
}

/** Cascading: rows whose column named like `parentCode` holds the parent's value; a blank parent leaves none. */
function parentCondition(c: RuntimeControl, record: Rec | null | undefined): SourceCondition | null | 'none' {
  const code = extraOf(c).parentCode;
  if (typeof code !== 'string' || !code.trim() || !record) return null;
  const key = Object.keys(record).find((k) => k.toLowerCase() === code.trim().toLowerCase());
  const value = key === undefined ? null : record[key];
  if (value === null || value === undefined || value === '') return 'none';
  return { column: code.trim(), op: 'eq', value: scalar(value) };
}

export interface SourceWindowInput {
  record?: Rec | null;
  filter?: string | null;
  skipCount: number;
  maxResultCount: number;
  offsetMinutes?: number;
}

/** The columns a lookup window shows: the display field and mapped fields, else the title column. */
function shownColumns(c: RuntimeControl, ref: TSourceQueryRef): string[] {
  const wanted = new Set<string>();
  const title = extraOf(c).dataSourceTitle;
  if (typeof title === 'string' && title) wanted.add(title);
  for (const m of (extraOf(c).mapFields ?? []) as { sourceCode?: string }[]) if (m?.sourceCode) wanted.add(m.sourceCode);
  if (wanted.size === 0) wanted.add(titleColumnOf(c, ref));
  return [...wanted];
}

async function readWindow(ctx: ServiceContext, c: RuntimeControl, ref: TSourceQueryRef, input: SourceWindowInput, t: Translate, searchColumns: string[], orderBy: string) {
  const offset = input.offsetMinutes ?? 0;
  const parent = parentCondition(c, input.record);
  if (parent === 'none') return { rows: [], totalCount: 0 };
  const where = [...joinConditions(ctx, c, input.record, t, offset), ...(parent ? [parent] : [])];
  const result = await readSourceRows(ctx, {
    sourceId: ref.sourceId,
    methodCode: ref.methodCode,
    parameters: queryParameters(ctx, ref, input.record, offset),
    where,
    search: input.filter?.trim() ? { columns: searchColumns, text: input.filter } : null,
    orderBy,
    limit: input.maxResultCount,
    offset: input.skipCount,
    count: true,
  });
  return { rows: result.rows, totalCount: result.totalCount ?? result.rows.length, columns: result.columns };
}

/**
 * A new record's default from a saved query (`extraProperties.defaultSourceQuery`): the value
 * column of the query's first row, its parameters from the new record; null when it answers none.
 */
export async function sourceDefaultValue(ctx: ServiceContext, c: RuntimeControl, ref: TSourceQueryRef, record: Rec | null | undefined, t: Translate, offsetMinutes = 0): Promise<string | number | boolean | null> {
  const result = await readSourceRows(ctx, { sourceId: ref.sourceId, methodCode: ref.methodCode, parameters: queryParameters(ctx, ref, record, offsetMinutes), limit: 1 });
  if (!result.columns.some((col) => col.name === ref.valueColumn)) {
    throw bizInvalid(t, [{ message: t('lookup.sourceColumn', { control: c.code, column: ref.valueColumn }), members: ['defaultSourceQuery'] }]);
  }
  const value = result.rows[0]?.[ref.valueColumn];
  if (value === undefined || value === null) return null;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : JSON.stringify(value);
}

const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/**
 * The lookup window's page of query rows: `Id` is the value column, then the shown columns — headed
 * by the lookup's title (its display field) or the title of the control a column is mapped to.
 */
export async function sourceQueryWindow(ctx: ServiceContext, c: RuntimeControl, ref: TSourceQueryRef, input: SourceWindowInput, t: Translate, view?: RuntimeView): Promise<TOpenWindowResult> {
  const titles = new Map<string, string>();
  for (const m of (extraOf(c).mapFields ?? []) as { sourceCode?: string; targetCode?: string }[]) {
    const target = view?.controls.find((x) => x.code === m?.targetCode);
    if (m?.sourceCode && target?.control.title) titles.set(m.sourceCode, target.control.title);
  }
  if (c.control.title) titles.set(titleColumnOf(c, ref), c.control.title);
  const shown = shownColumns(c, ref);
  const read = await readWindow(ctx, c, ref, input, t, shown, titleColumnOf(c, ref));
  return {
    items: read.rows.map((row) => {
      const item: Rec = { Id: text(row[ref.valueColumn]) };
      for (const code of shown) item[code] = row[code] ?? null;
      return item;
    }),
    totalCount: read.totalCount,
    totalCountIsEstimate: false,
    columns: shown.map((code) => ({ code, title: titles.get(code) ?? code, tableFieldType: 1 })),
  };
}

/** Drop-down options of the query: value column → label (title) column, searched by label and value. */
export async function sourceQueryOptions(ctx: ServiceContext, c: RuntimeControl, ref: TSourceQueryRef, input: SourceWindowInput, t: Translate): Promise<TDropDownResult> {
  const title = titleColumnOf(c, ref);
  const read = await readWindow(ctx, c, ref, input, t, [...new Set([title, ref.valueColumn])], title);
  return {
    items: read.rows.map((row) => {
      const value = text(row[ref.valueColumn]);
      return { value, label: text(row[title]) || value };
    }),
    totalCount: read.totalCount,
  };
}

/** Values read per statement (bound parameters of one `in`). */
export const SOURCE_VALUE_BATCH = 500;

/**
 * Of `values`, those the query answers (under the parameters of `record`), each with its title:
 * one statement per batch. A value the query does not answer is left out.
 */
export async function sourceQueryTitles(ctx: ServiceContext, c: RuntimeControl, ref: TSourceQueryRef, values: readonly string[], record: Rec | null | undefined, offsetMinutes = 0): Promise<Map<string, string>> {
  const title = titleColumnOf(c, ref);
  const wanted = [...new Set(values)];
  const out = new Map<string, string>();
  for (let at = 0; at < wanted.length; at += SOURCE_VALUE_BATCH) {
    const batch = wanted.slice(at, at + SOURCE_VALUE_BATCH);
    const result = await readSourceRows(ctx, {
      sourceId: ref.sourceId,
      methodCode: ref.methodCode,
      parameters: queryParameters(ctx, ref, record, offsetMinutes),
      where: [{ column: ref.valueColumn, op: 'in', value: batch }],
      limit: batch.length * 2,
    });
    for (const row of result.rows) {
      const value = text(row[ref.valueColumn]);
      if (!out.has(value)) out.set(value, text(row[title]) || value);
    }
  }
  return out;
}
