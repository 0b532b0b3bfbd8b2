import { VIEW_TYPES } from '@tessera/core/contracts/pages';
import { getControlType } from '@tessera/core/controls/registry';
import type { FormulaSchema } from '@tessera/core/formula/index';
import { flattenViews, type TPageDefinition, type TView } from '@tessera/core/page-definition';
import { workflowCheckOptionsForPage } from '@tessera/core/workflow/page-fields';
import type { FormulaReference } from '../../../shared/components/formula-editor/FormulaEditor.tsx';
import { localizedTitle } from '../../../shared/components/page-renderer/control-rules.ts';

/** 4001: the user / organisation-unit picker control (a `formField` assignee names one). */
const PICKER_CONTROL_TYPE = 4001;

export interface PageField {
  /** `code` for a master control, `viewCode.code` for a child view's. */
  ref: string;
  title: string;
  /** The view's title for child-view controls. */
  viewTitle: string | null;
  typeTitle: string;
  isMaster: boolean;
  isPicker: boolean;
}

export interface PageFields {
  fields: PageField[];
  formulaSchema: FormulaSchema;
  references: FormulaReference[];
  /** For the core validator. */
  refs: Set<string>;
  masterRefs: Set<string>;
  pickerRefs: Set<string>;
}

const isContainer = (v: TView) => Number(v.viewType ?? VIEW_TYPES.form) === VIEW_TYPES.container;

/**
 * The bound page's controls as the workflow sees them — field permissions, form-field assignees,
 * automatic assignments and formulas: the master (top-level data view) controls by `code`, the
 * child views' as `view.code` (formulas reach them as lists: `SUM({lines.amount})`).
 */
export function pageFieldsOf(def: TPageDefinition | null | undefined, language: string): PageFields {
  const empty: PageFields = { fields: [], formulaSchema: { fields: {}, masterFields: {}, views: {} }, references: [], refs: new Set(), masterRefs: new Set(), pickerRefs: new Set() };
  if (!def) return empty;
  const views = flattenViews(def).map(({ view }) => view).filter((v) => !isContainer(v));
  const master = views.find((v) => !v.parentViewControlId) ?? null;
  const out: PageField[] = [];
  for (const view of views) {
    const isMaster = view === master;
    for (const c of view.dataControls) {
      const type = getControlType(c.controlType);
      out.push({
        ref: isMaster ? c.code : `${view.code}.${c.code}`,
        title: localizedTitle(c, language),
        viewTitle: isMaster ? null : view.title || view.code,
        typeTitle: language === 'en-US' ? type.en : type.zh,
        isMaster,
        isPicker: Number(c.controlType) === PICKER_CONTROL_TYPE,
      });
    }
  }
  // The same schema and names the server checks a publish with.
  const options = workflowCheckOptionsForPage(def);
  return {
    fields: out,
    formulaSchema: options.formulaSchema!,
    references: out.map((f) => ({ ref: f.ref, title: f.viewTitle ? `${f.viewTitle} · ${f.title}` : f.title, typeTitle: f.typeTitle })),
    refs: new Set(options.fields),
    masterRefs: new Set(options.masterFields),
    pickerRefs: new Set(options.pickerFields),
  };
}
