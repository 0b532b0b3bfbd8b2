import { dataViews } from '@tessera/core/contracts/pages';
import { tableFieldTypeOf } from '@tessera/core/controls/registry';
import { PRINT_FIELD_PATTERN, type TPrintElement } from '@tessera/core/contracts/print-templates';
import type { TPageDefinition } from '@tessera/core/page-definition';
import type { PrintableField, PrintableView } from './layout-ops.ts';

/** What a template can bind on its page: the master view's fields and the child views a table lists. */
export interface PrintablePage {
  masterTitle: string;
  masterFields: PrintableField[];
  childViews: PrintableView[];
}

/** table field types 2 (integer) and 3 (decimal) are numbers: right-aligned, summable columns. */
const isNumberType = (controlType: number | string | null | undefined) => [2, 3].includes(tableFieldTypeOf(controlType));

const titleOf = (item: { title?: string | null; code?: string | null; extraProperties?: unknown }, language: string) => {
  const titles = (item.extraProperties as { titles?: Record<string, string> } | null | undefined)?.titles;
  return (titles && (titles[language] || titles[language.split('-')[0] ?? ''])) || item.title || item.code || '';
};

/**
 * The page's master view is its first data view that is not a child; child views (rows belonging
 * to the master record, `parentViewControlId` set) are what a table element lists.
 */
export function printablePage(def: Pick<TPageDefinition, 'viewControls'> | null | undefined, language: string): PrintablePage {
  if (!def) return { masterTitle: '', masterFields: [], childViews: [] };
  const views = dataViews(def).map(({ view }) => view);
  const master = views.find((v) => !v.parentViewControlId) ?? null;
  // Only controls a print field may name (letters, digits and _; a page code may also hold CJK characters).
  const fieldsOf = (v: (typeof views)[number]) => v.dataControls.filter((c) => PRINT_FIELD_PATTERN.test(c.code)).map((c) => ({ code: c.code, title: titleOf(c, language), isNumber: isNumberType(c.controlType) }));
  return {
    masterTitle: master ? master.title || master.code : '',
    masterFields: master ? fieldsOf(master).map(({ code, title }) => ({ code, title })) : [],
    childViews: views.filter((v) => v !== master && Boolean(v.parentViewControlId)).map((v) => ({ code: v.code, title: v.title || v.code, fields: fieldsOf(v) })),
  };
}

/**
 * Elements bound to what the page lacks (a master field, a child view or one of its columns): the
 * canvas marks them, as publishing would refuse them. Formulas are left to the server's check.
 */
export function unboundElementIds(elements: readonly TPrintElement[], page: PrintablePage): Set<string> {
  const fields = new Set(page.masterFields.map((f) => f.code));
  const views = new Map(page.childViews.map((v) => [v.code, new Set(v.fields.map((f) => f.code))]));
  const out = new Set<string>();
  for (const e of elements) {
    if ((e.type === 'text' || e.type === 'qrCode' || e.type === 'barcode') && e.source.kind === 'field' && !fields.has(e.source.field)) out.add(e.id);
    if (e.type === 'table') {
      const columns = views.get(e.view);
      if (!columns || e.columns.some((c) => !columns.has(c.field))) out.add(e.id);
    }
  }
  return out;
}
