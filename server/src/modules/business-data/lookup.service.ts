import type { RawBuilder } from 'kysely';
import { type TDropDownResult, type TOpenWindowResult, type TSourceDefaultInput, type TSourceDefaultResult, type TVoidDocumentNumberInput } from '@tessera/core/contracts/business-data';
import { controlDefaultQuery } from '@tessera/core/controls/registry';
import { parseFilterConditions } from '@tessera/core/filters/index';
import type { ServiceContext } from '../../platform/context.ts';
import { listDictionaryOptions } from '../dictionaries/index.ts';
import { reserveDocumentNumber, voidReservedNumber } from '../document-numbers/index.ts';
import { bizInvalid, requestTranslator, type Translate } from './business-data.messages.ts';
import * as repo from './business-data.repository.ts';
import { sourcePageOf, sourceVisibility } from './lookup-source.ts';
import { compileFilterSql, filterFieldsOf } from './filter-sql.ts';
import { cheapCount, compileClientFilter, orderByOf } from './query.service.ts';
import { fromColumnValue } from './record-values.ts';
import { recordFormulaValue, sourceDefaultValue, sourceQueryOf, sourceQueryOptions, sourceQueryWindow } from './source-query.ts';
import { loadRuntimePage, openPage, requireControl, requireVisibleControl, type RuntimeControl, type RuntimeView } from './runtime-page.ts';

/*
 * Drop-down options and the lookup (open-data) window. The client names only its page and the
 * control; the server reads the control's source from the published design (static options, a
 * dictionary, or a view of a published page), applies the design's join conditions (formula values
 * are evaluated here over the record being edited) and the caller's data scope on the source page,
 * and returns only the columns the control shows or maps.
 */

const extraOf = (c: RuntimeControl) => (c.control.extraProperties ?? {}) as Record<string, unknown>;

/** Join conditions of the design: `=formula` values are evaluated over the record being edited. */
function joinConditionSql(ctx: ServiceContext, control: RuntimeControl, source: RuntimeView, record: Record<string, unknown>, t: Translate, offsetMinutes: number): RawBuilder<unknown> | null {
  const list = (extraOf(control).joinConditions ?? []) as Record<string, unknown>[];
  if (!Array.isArray(list) || list.length === 0) return null;
  const resolved = list.map((c) => {
    if (typeof c.value !== 'string' || !c.value.startsWith('=')) return c;
    const v = recordFormulaValue(ctx, c.value, record, offsetMinutes);
    return { ...c, value: v === null || v === undefined ? '' : Array.isArray(v) ? v : String(v) };
  });
  const fields = filterFieldsOf(source.controls);
  const parsed = parseFilterConditions(resolved, fields, { now: ctx.now(), offsetMinutes, path: 'joinConditions' });
  if (!parsed.ok) throw bizInvalid(t, parsed.errors);
  return compileFilterSql(parsed.tree, fields, { alias: 't', offsetMinutes });
}

/*
 * Cascading (spec §3 data control `parentCode`): `parentCode` names another control of the same
 * row. When the request carries the row being edited (`record`), only the options under that
 * control's current value are returned — dictionary items whose parent item is that value, or
 * source-view rows whose column of the same code holds it; a blank parent value leaves no options.
 * Without a record (a client that filters by `parentValue` itself) nothing is narrowed.
 */
const parentCodeOf = (c: RuntimeControl) => {
  const code = extraOf(c).parentCode;
  return typeof code === 'string' && code.trim() ? code.trim() : null;
};
/** The parent value the options must sit under: undefined = no cascading, null = parent blank. */
function parentValueOf(control: RuntimeControl, record: Record<string, unknown> | null | undefined): string | null | undefined {
  const code = parentCodeOf(control);
  if (!code || !record) return undefined;
  const key = Object.keys(record).find((k) => k.toLowerCase() === code.toLowerCase());
  const value = key === undefined ? null : record[key];
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return null;
  return Array.isArray(value) ? String(value[0]) : String(value);
}

function parentConditionSql(control: RuntimeControl, source: RuntimeView, record: Record<string, unknown> | null | undefined, t: Translate): RawBuilder<unknown> | null {
  const parent = parentValueOf(control, record);
  if (parent === undefined) return null;
  if (parent === null) return repo.noRows;
  const code = parentCodeOf(control)!;
  const column = source.controls.find((c) => c.code.toLowerCase() === code.toLowerCase());
  if (!column) throw bizInvalid(t, [{ message: t('lookup.noParentField', { control: control.code, field: code }), members: ['dataControlId'] }]);
  return compileClientFilter([{ key: column.code, judgmentMethod: 'eq', value: parent }], [column], 0, t, 'record');
}

export interface OpenWindowInput {
  pageId: string;
  dataControlId: string;
  filterConditions?: unknown[] | null;
  filter?: string | null;
  record?: Record<string, unknown> | null;
  skipCount: number;
  maxResultCount: number;
  offsetMinutes?: number;
}

async function lookupSource(ctx: ServiceContext, input: { pageId: string; dataControlId: string }) {
  const t = requestTranslator(ctx);
  const page = await loadRuntimePage(ctx.db, input.pageId, t);
  const { control, view } = requireVisibleControl(ctx, page, input.dataControlId, t);
  const query = sourceQueryOf(control);
  const sourceId = extraOf(control).dataSourceId;
  const source = !query && typeof sourceId === 'string' && sourceId ? await sourcePageOf(ctx.db, sourceId, t) : null;
  return { t, page, view, control, source, query };
}

/**
 * The columns a lookup shows: its display field and mapped source fields. A design that names none
 * shows the source view's first text column only — never the whole source row (a lookup onto a
 * salary page would otherwise hand every column to anyone who may fill in the form).
 */
function shownColumns(control: RuntimeControl, source: RuntimeView): RuntimeControl[] {
  const extra = extraOf(control);
  const wanted = new Set<string>();
  if (typeof extra.dataSourceTitle === 'string' && extra.dataSourceTitle) wanted.add(extra.dataSourceTitle.toLowerCase());
  for (const m of (extra.mapFields ?? []) as { sourceCode?: string }[]) if (m?.sourceCode) wanted.add(m.sourceCode.toLowerCase());
  const shown = source.controls.filter((c) => wanted.has(c.code.toLowerCase()));
  if (shown.length) return shown;
  const firstText = source.controls.find((c) => c.tableFieldType === 1);
  return firstText ? [firstText] : [];
}

export async function queryOpenWindowData(ctx: ServiceContext, input: OpenWindowInput): Promise<TOpenWindowResult> {
  const { t, view: ownView, control, source, query } = await lookupSource(ctx, input);
  if (query) return sourceQueryWindow(ctx, control, query, input, t, ownView);
  if (!source) throw bizInvalid(t, [{ message: t('lookup.noSource', { control: control.code }), members: ['dataControlId'] }]);
  const offset = input.offsetMinutes ?? 0;
  const columns = shownColumns(control, source.view);
  const conditions: (RawBuilder<unknown> | null)[] = [
    ...(await sourceVisibility(ctx, source.page, source.view, ctx.db)),
    joinConditionSql(ctx, control, source.view, input.record ?? {}, t, offset),
    parentConditionSql(control, source.view, input.record, t),
    compileClientFilter(input.filterConditions, columns, offset, t, 'filterConditions', ctx.now()),
  ];
  const search = input.filter?.trim();
  if (search) {
    const textual = columns.filter((c) => c.tableFieldType === 1);
    const list = textual.map((c) => ({ key: c.code, judgmentMethod: 'contains', value: search, linkCondition: 'or' }));
    conditions.push(list.length ? compileClientFilter(list, textual, offset, t, 'filter', ctx.now()) : repo.noRows);
  }
  const orderBy = orderByOf(null, columns, t);
  const view: RuntimeView = { ...source.view, controls: columns };
  const rows = await repo.selectRows(ctx.db, view, conditions, orderBy, { limit: input.maxResultCount, offset: input.skipCount });
  const { totalCount, totalCountIsEstimate } = await cheapCount(ctx.db, view, conditions, input.skipCount, input.maxResultCount, rows.length);
  return {
    items: rows.map((r) => {
      const item: Record<string, unknown> = { Id: r.Id };
      for (const c of columns) item[c.code] = fromColumnValue(c, r[c.code]);
      return item;
    }),
    totalCount,
    totalCountIsEstimate,
    columns: columns.map((c) => ({ code: c.code, title: c.control.title || c.code, tableFieldType: c.tableFieldType })),
  };
}

export interface DropDownInput {
  pageId: string;
  dataControlId: string;
  filterConditions?: unknown[] | null;
  filter?: string | null;
  record?: Record<string, unknown> | null;
  skipCount: number;
  maxResultCount: number;
}

export async function queryDropDownData(ctx: ServiceContext, input: DropDownInput): Promise<TDropDownResult> {
  const { t, control, source, query } = await lookupSource(ctx, input);
  if (query) return sourceQueryOptions(ctx, control, query, input, t);
  const search = input.filter?.trim().toLowerCase() ?? '';
  const pageOf = (items: { value: string; label: string; parentValue?: string | null }[]) => {
    const matching = search ? items.filter((i) => i.label.toLowerCase().includes(search) || i.value.toLowerCase().includes(search)) : items;
    return { items: matching.slice(input.skipCount, input.skipCount + input.maxResultCount), totalCount: matching.length };
  };
  const options = control.control.options;
  if (Array.isArray(options)) {
    return pageOf(
      options.flatMap((o) => {
        if (o && typeof o === 'object' && 'value' in o) {
          const value = String((o as { value: unknown }).value);
          const label = (o as { label?: unknown }).label;
          return [{ value, label: typeof label === 'string' && label ? label : value }];
        }
        return typeof o === 'string' || typeof o === 'number' ? [{ value: String(o), label: String(o) }] : [];
      }),
    );
  }
  const dictionaryCode = options && typeof options === 'object' ? (options as { dictionaryCode?: unknown }).dictionaryCode : undefined;
  if (typeof dictionaryCode === 'string' && dictionaryCode) {
    const parent = parentValueOf(control, input.record);
    const items = (await listDictionaryOptions(ctx.db, dictionaryCode, ctx.culture)).filter((i) => parent === undefined || (parent !== null && i.parentValue === parent));
    return pageOf(items.map((i) => ({ value: i.value, label: i.label, parentValue: i.parentValue ?? null })));
  }
  if (!source) throw bizInvalid(t, [{ message: t('lookup.noSource', { control: control.code }), members: ['dataControlId'] }]);
  const window = await queryOpenWindowData(ctx, { ...input, record: input.record ?? null, filter: input.filter });
  const titleCode = extraOf(control).dataSourceTitle;
  const label = (item: Record<string, unknown>) => {
    const v = typeof titleCode === 'string' ? item[titleCode] : undefined;
    return v === null || v === undefined || v === '' ? String(item.Id) : String(v);
  };
  return { items: window.items.map((i) => ({ value: String(i.Id), label: label(i) })), totalCount: window.totalCount };
}

/** spec §4 docNoOccasion 1: the number shown on a new record, reserved until the save consumes it. */
export async function reserveNumberForControl(ctx: ServiceContext, input: { pageId: string; dataControlId: string }): Promise<{ docNo: string }> {
  const { t, page } = await openPage(ctx, input.pageId);
  const { control } = requireControl(page, input.dataControlId, t);
  const rule = extraOf(control).documentNumberRuleId;
  if (typeof rule !== 'string' || !rule) throw bizInvalid(t, [{ message: t('docNo.noRule', { control: control.code }), members: ['dataControlId'] }]);
  const issued = await reserveDocumentNumber(ctx.db, rule, { userId: ctx.user?.id ?? null, culture: ctx.culture });
  return { docNo: issued.docNo };
}

/** A new record's default from the control's saved query of a data source (`extraProperties.defaultSourceQuery`). */
export async function sourceDefaultForControl(ctx: ServiceContext, input: TSourceDefaultInput): Promise<TSourceDefaultResult> {
  const { t, page } = await openPage(ctx, input.pageId);
  const { control } = requireControl(page, input.dataControlId, t);
  const ref = controlDefaultQuery(control.control);
  if (!ref) throw bizInvalid(t, [{ message: t('lookup.noDefaultQuery', { control: control.code }), members: ['dataControlId'] }]);
  return { value: await sourceDefaultValue(ctx, control, ref, input.record ?? null, t, input.offsetMinutes ?? 0) };
}

/**
 * The number a new record showed, voided by the user who reserved it when the form is left unsaved
 * (issue 12: closing the form, the tab or the browser). Someone else's number is refused (403);
 * a number already used or void is a 400 saying so. Reservations nobody voided are swept after a
 * day (document-numbers: RESERVATION_TTL_MS).
 */
export async function voidNumberForControl(ctx: ServiceContext, input: TVoidDocumentNumberInput): Promise<void> {
  const { t, page } = await openPage(ctx, input.pageId);
  const { control } = requireControl(page, input.dataControlId, t);
  const rule = extraOf(control).documentNumberRuleId;
  if (typeof rule !== 'string' || !rule) throw bizInvalid(t, [{ message: t('docNo.noRule', { control: control.code }), members: ['dataControlId'] }]);
  await voidReservedNumber(ctx.db, rule, input.docNo, { userId: ctx.user?.id ?? null, mayVoidAny: false, culture: ctx.culture });
}
