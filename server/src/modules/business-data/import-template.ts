/**
 * The Excel import template of a master view: what a clerk fills in and imports back.
 *   - one sheet per view (named by the view's title), first the master; row 1 the column titles,
 *     row 2 (hidden) the field codes — the import skips it;
 *   - Excel data validation on 1,000 rows: drop-downs of the labels for option and dictionary
 *     fields (the lists on a hidden sheet), 是/否 for yes/no, whole numbers, decimals, dates;
 *   - a notes sheet: how to fill in the file, and per column its type, whether it is required,
 *     its format or choices, and a sample value; then one sample row per sheet laid out like it.
 * Only fields the caller may edit that are neither computed nor numbered by a rule are columns.
 */
import { ControlTypeId, controlOptionSource, numberAccuracyOf } from '@tessera/core/controls/registry';
import { formatIsoDay } from '@tessera/core/helpers/iso-date';
import ExcelJS from 'exceljs';
import type { ServiceContext } from '../../platform/context.ts';
import { styleHeaderRow, workbookBuffer } from '../../platform/excel.ts';
import { localize } from '../../platform/localized-text.ts';
import { findDictionaryItemsByCodes } from '../dictionaries/index.ts';
import type { Translate } from './business-data.messages.ts';
import { fieldColumns, importableControls, LINK_CODE, LINK_TITLE, linkedColumns, linkOf, sheetName, sheetViews, TEMPLATE_LISTS_SHEET, viewFor, type Link } from './excel.service.ts';
import { listLabels } from './labels.ts';
import type { RuntimeControl, RuntimePage, RuntimeView } from './runtime-page.ts';

/** Rows the template's data validation covers (below the two header rows). */
export const TEMPLATE_ROWS = 1000;
const FIRST_DATA_ROW = 3;
const LIST_TYPES = new Set<number>([ControlTypeId.MultiSelect, ControlTypeId.MultiValue]);

interface TemplateSheet {
  view: RuntimeView;
  name: string;
  link: Link | null;
  fields: RuntimeControl[];
}

/** The labels a field's cell may hold (option and dictionary fields; enabled items only; not a data-source query's), or null. */
async function choicesOf(ctx: ServiceContext, fields: readonly RuntimeControl[]): Promise<Map<RuntimeControl, string[]>> {
  const sources = fields.map((c) => [c, controlOptionSource(c.control)] as const).filter(([, s]) => s !== null);
  const codes = sources.flatMap(([, s]) => (s!.kind === 'dictionary' ? [s!.code] : []));
  const dictionaries = codes.length ? await findDictionaryItemsByCodes(ctx.db, codes) : new Map();
  const out = new Map<RuntimeControl, string[]>();
  for (const [c, source] of sources) {
    if (source!.kind === 'list') out.set(c, [...listLabels(c).values()]);
    else if (source!.kind === 'dictionary') {
      const items = dictionaries.get(source!.code) ?? [];
      out.set(c, items.filter((i: { isEnabled: boolean }) => i.isEnabled).map((i: { labels: Record<string, string> }) => localize(i.labels, ctx.culture)));
    }
  }
  return out;
}

const extra = (c: RuntimeControl) => (c.control.extraProperties ?? {}) as { required?: unknown; maxLength?: unknown; accuracy?: unknown; min?: unknown; max?: unknown; dateType?: unknown };

/** A column's note: type, format or choices (the notes sheet and the header cell's comment). */
function noteOf(t: Translate, c: RuntimeControl, choices: string[] | undefined): string {
  const x = extra(c);
  if (choices) {
    const shown = choices.slice(0, 20).join(t('template.listSeparator')) + (choices.length > 20 ? '…' : '');
    return LIST_TYPES.has(c.controlType) ? t('template.noteMulti', { choices: shown }) : t('template.noteChoice', { choices: shown });
  }
  if (c.controlType === ControlTypeId.Lookup) return t('template.noteLookup');
  if (c.controlType === ControlTypeId.UserOrgPicker) return t('template.notePicker');
  switch (c.tableFieldType) {
    case 2:
      return t('template.noteInteger');
    case 3: {
      // A currency amount has 2 places unless the designer set others.
      const places = numberAccuracyOf(c.control);
      return places !== null ? t('template.noteDecimalPlaces', { places }) : t('template.noteDecimal');
    }
    case 4:
      return Number(x.dateType) === 3 ? t('template.noteDateTime') : Number(x.dateType) === 1 ? t('template.noteMonth') : t('template.noteDate');
    case 5:
      return t('template.noteBoolean', { yes: t('template.yes'), no: t('template.no') });
    default:
      return typeof x.maxLength === 'number' ? t('template.noteTextMax', { max: x.maxLength }) : t('template.noteText');
  }
}

/** A sample value that imports as it is. */
function sampleOf(t: Translate, c: RuntimeControl, choices: string[] | undefined, today: string): string | number {
  const x = extra(c);
  if (choices) return LIST_TYPES.has(c.controlType) ? choices.slice(0, 2).join(', ') : (choices[0] ?? '');
  if (c.controlType === ControlTypeId.Lookup || c.controlType === ControlTypeId.UserOrgPicker) return '';
  switch (c.tableFieldType) {
    case 2:
      return typeof x.min === 'number' && x.min > 10 ? x.min : 10;
    case 3: {
      const places = numberAccuracyOf(c.control) ?? 2;
      return Number((12.5).toFixed(places));
    }
    case 4:
      return Number(x.dateType) === 3 ? `${today} 09:30` : Number(x.dateType) === 1 ? today.slice(0, 7) : today;
    case 5:
      return t('template.yes');
    default:
      return t('template.sampleText', { title: c.control.title || c.code });
  }
}

const columnLetter = (n: number) => {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
};

/** Excel data validation of a column (rows 3 … 1002); `listRange` is the column's choices on the lists sheet. */
function validationOf(t: Translate, c: RuntimeControl, listRange: string | null): ExcelJS.DataValidation | null {
  const x = extra(c);
  const error = { showErrorMessage: true, errorStyle: 'stop' as const, errorTitle: t('template.invalidTitle') };
  if (listRange) return { type: 'list', allowBlank: true, formulae: [listRange], ...error, error: t('template.invalidChoice') };
  if (c.controlType === ControlTypeId.Lookup || c.controlType === ControlTypeId.UserOrgPicker || LIST_TYPES.has(c.controlType)) return null;
  switch (c.tableFieldType) {
    case 2:
      return { type: 'whole', allowBlank: true, operator: 'between', formulae: [typeof x.min === 'number' ? x.min : -999_999_999_999, typeof x.max === 'number' ? x.max : 999_999_999_999], ...error, error: t('template.invalidInteger') };
    case 3:
      return { type: 'decimal', allowBlank: true, operator: 'between', formulae: [typeof x.min === 'number' ? x.min : -999_999_999_999, typeof x.max === 'number' ? x.max : 999_999_999_999], ...error, error: t('template.invalidNumber') };
    case 4:
      return { type: 'date', allowBlank: true, operator: 'between', formulae: [new Date(Date.UTC(1900, 0, 1)), new Date(Date.UTC(9999, 11, 31))], ...error, error: t('template.invalidDate') };
    case 5:
      return { type: 'list', allowBlank: true, formulae: [`"${t('template.yes')},${t('template.no')}"`], ...error, error: t('template.invalidChoice') };
    default:
      return typeof x.maxLength === 'number'
        ? { type: 'textLength', allowBlank: true, operator: 'lessThanOrEqual', formulae: [x.maxLength], ...error, error: t('template.invalidLength', { max: x.maxLength }) }
        : null;
  }
}

/** ExcelJS keeps range validations (`B3:B1002`) in `dataValidations`, which its types do not declare. */
const validations = (sheet: ExcelJS.Worksheet) => (sheet as unknown as { dataValidations: { add(range: string, rule: ExcelJS.DataValidation): void } }).dataValidations;

const dateFormatOf = (c: RuntimeControl) => (Number(extra(c).dateType) === 3 ? 'yyyy-mm-dd hh:mm' : Number(extra(c).dateType) === 1 ? 'yyyy-mm' : 'yyyy-mm-dd');

function sheetsOf(page: RuntimePage, master: RuntimeView, fieldsOf: (v: RuntimeView) => RuntimeControl[]): TemplateSheet[] {
  return [
    { view: master, name: sheetName(master, page), link: null, fields: fieldsOf(master) },
    ...sheetViews(page, fieldsOf).map(({ view, fields }) => ({ view, name: sheetName(view, page), link: linkOf(view), fields })),
  ];
}

export async function importTemplate(ctx: ServiceContext, input: { pageId: string; viewId: string }): Promise<{ fileName: string; content: Buffer }> {
  const { view, access, page, t } = await viewFor(ctx, input.pageId, input.viewId);
  access.requireAction('import');
  const sheets = sheetsOf(page, view, (v) => importableControls(v, access));
  const choices = await choicesOf(ctx, sheets.flatMap((s) => s.fields));
  const today = formatIsoDay(ctx.now(), 0);

  const workbook = new ExcelJS.Workbook();
  const lists = { sheet: null as ExcelJS.Worksheet | null, column: 0 };
  /** Puts a field's choices in a column of the hidden lists sheet; returns the range. */
  const listRangeOf = (labels: string[]) => {
    if (!labels.length) return null;
    lists.sheet ??= workbook.addWorksheet(TEMPLATE_LISTS_SHEET, { state: 'veryHidden' });
    const col = ++lists.column;
    labels.forEach((label, i) => (lists.sheet!.getCell(i + 1, col).value = label));
    const letter = columnLetter(col);
    return `'${TEMPLATE_LISTS_SHEET}'!$${letter}$1:$${letter}$${labels.length}`;
  };
  const dataSheets = sheets.map((s) => workbook.addWorksheet(s.name));
  for (const [i, s] of sheets.entries()) {
    const sheet = dataSheets[i]!;
    sheet.columns = s.link ? linkedColumns(t, s.view, s.fields) : fieldColumns(s.fields);
    const codes = sheet.addRow(s.link ? [LINK_CODE[s.link], ...s.fields.map((c) => c.code)] : s.fields.map((c) => c.code));
    codes.hidden = true;
    styleHeaderRow(sheet, { shaded: false });
    sheet.views = [{ state: 'frozen', ySplit: 2 }];
    const offset = s.link ? 1 : 0;
    if (s.link) {
      const letter = columnLetter(1);
      validations(sheet).add(`${letter}${FIRST_DATA_ROW}:${letter}${FIRST_DATA_ROW + TEMPLATE_ROWS - 1}`, {
        type: 'whole', allowBlank: false, operator: 'greaterThanOrEqual', formulae: [FIRST_DATA_ROW], showErrorMessage: true, errorTitle: t('template.invalidTitle'), error: t('template.invalidRowNumber'),
      });
      sheet.getCell(1, 1).note = t(s.link === 'master' ? 'template.masterRowNote' : 'template.parentRowNote', { sheet: sheets.find((o) => o.view === s.view.parent)?.name ?? '' });
    }
    for (const [j, c] of s.fields.entries()) {
      const col = j + 1 + offset;
      const letter = columnLetter(col);
      const own = choices.get(c);
      const rule = validationOf(t, c, own && !LIST_TYPES.has(c.controlType) ? listRangeOf(own) : null);
      if (rule) validations(sheet).add(`${letter}${FIRST_DATA_ROW}:${letter}${FIRST_DATA_ROW + TEMPLATE_ROWS - 1}`, rule);
      if (c.tableFieldType === 4) sheet.getColumn(col).numFmt = dateFormatOf(c);
      const required = extra(c).required === true;
      sheet.getCell(1, col).note = `${required ? `${t('template.required')}。` : ''}${noteOf(t, c, own)}`;
      if (required) sheet.getCell(1, col).font = { bold: true, color: { argb: 'FFC0392B' } };
    }
  }

  // The notes sheet: how to fill in the file, each column, and a sample row per sheet.
  const notes = workbook.addWorksheet(t('template.notesSheet'));
  notes.columns = [{ width: 16 }, { width: 22 }, { width: 18 }, { width: 10 }, { width: 60 }, { width: 24 }];
  notes.addRow([t('template.notesTitle', { page: localize(page.title, ctx.culture) || page.pageCode })]).font = { bold: true, size: 14 };
  for (const line of ['template.howTo1', 'template.howTo2', 'template.howTo3', 'template.howTo4'] as const) notes.addRow([t(line, { sheet: sheets[0]!.name })]);
  notes.addRow([]);
  const head = notes.addRow([t('template.colSheet'), t('template.colColumn'), t('template.colCode'), t('template.colRequired'), t('template.colFormat'), t('template.colSample')]);
  head.font = { bold: true };
  for (const s of sheets) {
    if (s.link) notes.addRow([s.name, t(LINK_TITLE[s.link]), LINK_CODE[s.link], t('template.yes'), t(s.link === 'master' ? 'template.masterRowNote' : 'template.parentRowNote', { sheet: sheets.find((o) => o.view === s.view.parent)?.name ?? '' }), FIRST_DATA_ROW]);
    for (const [j, c] of s.fields.entries()) {
      const header = (s.link ? linkedColumns(t, s.view, s.fields).slice(1) : fieldColumns(s.fields))[j]!.header;
      notes.addRow([s.name, header, c.code, extra(c).required === true ? t('template.yes') : t('template.no'), noteOf(t, c, choices.get(c)), sampleOf(t, c, choices.get(c), today)]);
    }
  }
  for (const s of sheets) {
    notes.addRow([]);
    notes.addRow([t('template.sampleRow', { sheet: s.name })]).font = { bold: true };
    const columns = s.link ? linkedColumns(t, s.view, s.fields) : fieldColumns(s.fields);
    notes.addRow(columns.map((c) => c.header)).font = { italic: true };
    notes.addRow([...(s.link ? [FIRST_DATA_ROW] : []), ...s.fields.map((c) => sampleOf(t, c, choices.get(c), today))]);
  }
  return { fileName: `${page.pageCode}-${view.code}-template.xlsx`, content: await workbookBuffer(workbook) };
}
