import { computedControlIds } from '@tessera/core/linkage/index';
import type { Kysely } from 'kysely';
import { bizPermission, type BizAction } from '@tessera/core/contracts/permissions';
import { ControlTypeId, pickerSelectionType, tableFieldTypeOf } from '@tessera/core/controls/registry';
import { actionButtonCodes, flattenViews, ZPageDefinition, type TableFieldType, type TDataControl, type TPageDefinition, type TView } from '@tessera/core/page-definition';
import type { Database } from '../../db/schema.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { forbidden } from '../../platform/errors.ts';
import { bizTableName, getPublishedPageDefinition, getPublishedVersionNumber, isContainerView } from '../pages/index.ts';
import { bizNotFound, requestTranslator, type Translate } from './business-data.messages.ts';

type Db = Kysely<Database>;

/*
 * A published page as the runtime uses it: its data views (master first, children after their
 * parent), their controls by code, and the permission codes that guard it. Loaded through the
 * pages module (`getPublishedPage`) and cached per page and published version; each request
 * revalidates with one indexed lookup of the page's current version, so a new publish is seen at once.
 */

export interface RuntimeControl {
  control: TDataControl;
  code: string;
  tableFieldType: TableFieldType;
  controlType: number;
  /** A formula always computes its value (core computedControlIds): what a caller sends for it is recomputed. */
  formulaComputed: boolean;
}

export interface RuntimeView {
  view: TView;
  id: string;
  code: string;
  table: string;
  parent: RuntimeView | null;
  children: RuntimeView[];
  controls: RuntimeControl[];
  byCode: Map<string, RuntimeControl>;
}

export type ButtonAction = BizAction;

export interface RuntimePage {
  pageId: string;
  pageCode: string;
  title: Record<string, string>;
  version: number;
  definition: TPageDefinition;
  /** Every data view; `master` is the first top-level one. */
  views: Map<string, RuntimeView>;
  master: RuntimeView;
  /** Data views in load order: master, then each view after its parent. */
  order: RuntimeView[];
  controlsById: Map<string, { view: RuntimeView; control: RuntimeControl }>;
  /** Codes of the page's coded buttons per built-in action. */
  buttonCodes: Map<ButtonAction, string[]>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function buildRuntimePage(page: { id: string; code: string; name: Record<string, string> }, version: number, definition: TPageDefinition): RuntimePage | null {
  const views = new Map<string, RuntimeView>();
  const all = flattenViews(definition).filter(({ view }) => !isContainerView(view.viewType) && UUID.test(view.id));
  const computed = computedControlIds(definition);
  for (const { view } of all) {
    const controls = view.dataControls.map((c) => ({ control: c, code: c.code, controlType: Number(c.controlType), tableFieldType: tableFieldTypeOf(c.controlType), formulaComputed: computed.has(c.id) }));
    views.set(view.id, { view, id: view.id, code: view.code, table: bizTableName(view.id), parent: null, children: [], controls, byCode: new Map(controls.map((c) => [c.code, c])) });
  }
  for (const v of views.values()) {
    const parentId = v.view.parentViewControlId;
    const parent = parentId ? views.get(parentId) : undefined;
    if (parent) {
      v.parent = parent;
      parent.children.push(v);
    }
  }
  const master = [...views.values()].find((v) => !v.parent);
  if (!master) return null;
  const order: RuntimeView[] = [];
  const walk = (v: RuntimeView) => {
    order.push(v);
    v.children.forEach(walk);
  };
  walk(master);
  const controlsById = new Map<string, { view: RuntimeView; control: RuntimeControl }>();
  for (const v of order) for (const c of v.controls) controlsById.set(c.control.id, { view: v, control: c });
  const buttonCodes = actionButtonCodes(definition);
  return { pageId: page.id, pageCode: page.code, title: page.name, version, definition, views: new Map(order.map((v) => [v.id, v])), master, order, controlsById, buttonCodes };
}

const cache = new WeakMap<Db, Map<string, RuntimePage>>();

/** The latest published version of a page (by id or code) prepared for the runtime; 404 otherwise. */
export async function loadRuntimePage(db: Db, pageIdOrCode: string, t: Translate): Promise<RuntimePage> {
  let byDb = cache.get(db);
  if (!byDb) cache.set(db, (byDb = new Map()));
  // The page's current published version is the cache key: one indexed lookup.
  const current = await getPublishedVersionNumber(db, pageIdOrCode);
  if (!current) throw bizNotFound(t, 'page.notFound', { page: pageIdOrCode.slice(0, 64) });
  const hit = byDb.get(current.id);
  if (hit && hit.version === current.version) return hit;
  const published = await getPublishedPageDefinition(db, current.id);
  const runtime = published ? buildRuntimePage(published.page, published.version.version, published.definition) : null;
  if (!runtime) throw bizNotFound(t, 'page.notFound', { page: pageIdOrCode.slice(0, 64) });
  byDb.set(current.id, runtime);
  return runtime;
}

export function requireView(page: RuntimePage, viewId: string, t: Translate): RuntimeView {
  const view = page.views.get(viewId) ?? [...page.views.values()].find((v) => v.code === viewId);
  if (!view) throw bizNotFound(t, 'view.notFound', { view: viewId.slice(0, 64) });
  return view;
}

export function requireControl(page: RuntimePage, dataControlId: string, t: Translate) {
  const found = page.controlsById.get(dataControlId);
  if (!found) throw bizNotFound(t, 'control.notFound', { control: dataControlId.slice(0, 64) });
  return found;
}

/**
 * A control the caller works with on the page (a lookup, a drop-down, a user picker): they must
 * open the page and be allowed to view that control — its source answers only to those who may.
 */
export function requireVisibleControl(ctx: ServiceContext, page: RuntimePage, dataControlId: string, t: Translate) {
  const access = PageAccess.of(page, ctx);
  access.requireOpen();
  const found = requireControl(page, dataControlId, t);
  if (!access.canView(found.control.code)) throw forbidden({ permission: bizPermission.fieldView(page.pageCode, found.control.code) });
  return found;
}

export interface PickerControlInput {
  pageId: string;
  dataControlId: string;
  type: 1 | 3 | 4;
}

/**
 * The directory's page context: a picker control of this page that the caller may view, picking
 * the asked kind of item. Anything else — another control, another kind — is refused.
 */
export async function requirePickerControl(ctx: ServiceContext, input: PickerControlInput): Promise<void> {
  const t = requestTranslator(ctx);
  const page = await loadRuntimePage(ctx.db, input.pageId, t);
  const { control } = requireVisibleControl(ctx, page, input.dataControlId, t);
  if (Number(control.control.controlType) !== ControlTypeId.UserOrgPicker || pickerSelectionType(control.control) !== input.type) {
    throw forbidden({ reason: 'NotAPickerOfThisKind', control: control.code });
  }
}

/**
 * A page the caller works on: loaded (404 if not published), the caller's rights on it, and the
 * translator of their language. `requireOpen` (the default) refuses a caller without `Biz.<page>.Access`.
 */
export async function openPage(ctx: ServiceContext, pageId: string, options: { requireOpen?: boolean } = {}) {
  const t = requestTranslator(ctx);
  const page = await loadRuntimePage(ctx.db, pageId, t);
  const access = PageAccess.of(page, ctx);
  if (options.requireOpen !== false) access.requireOpen();
  return { t, page, access };
}

/**
 * What the caller may do on this page: `Biz.<page>.Access`, buttons, and view/edit per field. A
 * user holds the codes of their access list (an administrator's list holds every defined code); the
 * system (`systemContext`: a workflow step, a data-transmission worker) holds every code.
 */
export class PageAccess {
  private readonly has: (code: string) => boolean;
  /** Controls hidden on top of the field rights (an approval node's hidden fields, issue 13). */
  private hidden: ((view: RuntimeView, control: RuntimeControl) => boolean) | null = null;
  constructor(
    private readonly page: RuntimePage,
    holds: ReadonlySet<string> | ((code: string) => boolean),
  ) {
    this.has = typeof holds === 'function' ? holds : (code) => holds.has(code);
  }
  static of(page: RuntimePage, ctx: Pick<ServiceContext, 'user' | 'isSystem'>): PageAccess {
    if (ctx.isSystem) return new PageAccess(page, () => true);
    return new PageAccess(page, ctx.user?.access ?? new Set());
  }
  get canOpen() {
    return this.has(bizPermission.access(this.page.pageCode));
  }
  requireOpen() {
    if (!this.canOpen) throw forbidden({ permission: bizPermission.access(this.page.pageCode) });
  }
  /**
   * The codes that allow an action: the codes of the design's buttons for it, or, where the design
   * has no coded button of that type, the page's default action code (`Biz.<page>.Action.Add`).
   */
  private actionCodes(action: ButtonAction): string[] {
    const codes = this.page.buttonCodes.get(action) ?? [];
    return codes.length ? codes.map((c) => bizPermission.button(this.page.pageCode, c)) : [bizPermission.action(this.page.pageCode, action)];
  }
  /** Whether the caller may open the page and holds one of the action's codes. */
  mayDo(action: ButtonAction) {
    return this.canOpen && this.actionCodes(action).some((c) => this.has(c));
  }
  requireAction(action: ButtonAction) {
    this.requireOpen();
    const names = this.actionCodes(action);
    if (!names.some((n) => this.has(n))) throw forbidden({ permission: names[0] });
  }
  canView(code: string) {
    return this.has(bizPermission.fieldView(this.page.pageCode, code)) || this.canEdit(code);
  }
  canEdit(code: string) {
    return this.has(bizPermission.fieldEdit(this.page.pageCode, code));
  }
  /** Controls of a view the caller may see. */
  visibleControls(view: RuntimeView): RuntimeControl[] {
    return view.controls.filter((c) => this.canView(c.code) && !this.hidden?.(view, c));
  }
  /** The same rights, with some controls of some views hidden as well (in what is read, not in what is checked). */
  hiding(hidden: (view: RuntimeView, control: RuntimeControl) => boolean): PageAccess {
    const narrowed = new PageAccess(this.page, this.has);
    narrowed.hidden = hidden;
    return narrowed;
  }
}
