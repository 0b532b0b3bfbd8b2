/**
 * PageRenderer — renders a page definition the same way in the designer's preview and in the
 * business runtime (issue 8). Props (types in renderer-types.ts):
 *
 * - `definition: TPageDefinition` — the (published or draft) design: views, controls, buttons, linkages.
 * - `mode: 'preview' | 'runtime'` — preview uses sample lookup rows when no `services.queryLookup` is given.
 * - `value?: TPageData` / `onChange?(data)` — controlled page data (`viewDataList` per view). Without
 *   `value` the renderer starts a new record with spec §4 defaults and keeps the data itself;
 *   `onChange` still reports every change (after linkages ran).
 * - `readOnly?: boolean` — every field and button disabled.
 * - `fixedRowViews?: ReadonlySet<string>` — child views whose rows cannot be added, copied or deleted.
 * - `showAllErrors?: boolean` — show every field's validation message (after a failed save);
 *   otherwise only touched fields show theirs.
 * - `busyButtonId?: string | null` — the page button whose action is under way: it spins, the
 *   other page buttons are disabled until it ends.
 * - `services?: PageRendererServices` — server-backed pieces, all optional: `queryLookup(query)` rows for
 *   lookup windows, `loadOptions(control)` dictionary/query options, `fetchDocumentNumber(control, view)`
 *   for docNoOccasion 1, `now()` server date, `dictionary(code, value)` DICT() labels, `currentUser` /
 *   `currentOrgUnit` for picker defaults and formulas. `loadOptions(control, record)` gets the row being
 *   edited (cascading `parentCode`) and runs again when the parent control's value changes.
 * - `onButton?(button, view)` — a page button (view null) or view button was pressed. Row actions of
 *   grids (add, copyRow, delete) are handled inside; custom buttons (`buttonType` 'custom') run their
 *   `assignments` inside first, then `onButton` is still called (save, submit … are the caller's).
 *
 * Data linkages (type 1 assignments, type 2 page state) run live on every change through
 * packages/core/src/linkage; page-state results hide / lock controls, views and buttons.
 */
import { Alert, Button, Card, Empty, Space, Tabs } from 'antd';
import { newGuid } from '@tessera/core/helpers/guid';
import { getControlType } from '@tessera/core/controls/registry';
import { computedControlIds, recomputeLinkages } from '@tessera/core/linkage/index';
import { flattenViews, type TAssignment, type TBusinessRecord, type TDataControl, type TPageData, type TPageDefinition, type TView } from '@tessera/core/page-definition';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { checkControlValue, localizedTitle, viewTitle } from './control-rules.ts';
import { FormView } from './FormView.tsx';
import { buttonAction, GridView } from './GridView.tsx';
import { runLinkages, type LinkageChange } from './linkage-runner.ts';
import { childRowsOf, ensureRecords, initialPageData, newRow, patchRecord, rowsOf, viewKind, withRows, type PendingValue } from './page-data.ts';
import { RendererContext, type PageState, type RendererContextValue } from './renderer-context.ts';
import type { ChangeCause, PageRendererProps } from './renderer-types.ts';
import './renderer-texts.ts';

export type { ChangeCause, PageRendererProps, PageRendererServices, LookupQuery, LookupResult, OptionItem } from './renderer-types.ts';

const touchKey = (viewId: string, recordId: string, code: string) => `${viewId}|${recordId}|${code}`;
const NO_VIEWS: ReadonlySet<string> = new Set();

/**
 * Renders a page definition (spec §3): master form views, child grids, tab/group containers, every
 * control type, spec §4 defaults for new records and live data linkages. Used by the designer's
 * preview (sample data, never saved) and by the business runtime (issue 8) with its own services.
 */
export function PageRenderer(props: PageRendererProps) {
  const { definition, mode, readOnly = false, fixedRowViews = NO_VIEWS, services, showAllErrors = false } = props;
  const { t, i18n } = useTranslation('pageRenderer');
  const context = useMemo(
    () => ({
      now: services?.now?.() ?? new Date(),
      offsetMinutes: -new Date().getTimezoneOffset(),
      currentUser: services?.currentUser ?? null,
      currentOrgUnit: services?.currentOrgUnit ?? null,
    }),
    [services],
  );

  // Uncontrolled use (preview): the renderer keeps the data itself.
  const [ownData, setOwnData] = useState<TPageData | null>(null);
  const [pageState, setPageState] = useState<PageState>({ hidden: new Set(), readOnly: new Set() });
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const data = props.value ?? ownData;
  const dataRef = useRef<TPageData | null>(data);
  dataRef.current = data;

  const pageStateRef = useRef(pageState);
  pageStateRef.current = pageState;
  const [linkageErrors, setLinkageErrors] = useState<{ linkageId: string; message: string }[]>([]);
  const linkageContext = useMemo(
    () => ({
      locale: (i18n.language === 'en-US' ? 'en-US' : 'zh-CN') as 'en-US' | 'zh-CN',
      offsetMinutes: context.offsetMinutes,
      now: context.now,
      user: services?.currentUser ? { id: services.currentUser.id, name: services.currentUser.title, orgUnitId: services.currentOrgUnit?.id ?? null, orgUnitName: services.currentOrgUnit?.title ?? null } : null,
      dictionary: services?.dictionary ? (code: string, value: string) => services.dictionary!(code, value) : null,
    }),
    [i18n.language, context, services],
  );
  const commit = useCallback(
    (next: TPageData, change: LinkageChange | LinkageChange[] | null, cause: ChangeCause = 'edit') => {
      let data = next;
      let state = pageStateRef.current;
      const errors: { linkageId: string; message: string }[] = [];
      for (const c of Array.isArray(change) ? change : [change]) {
        const result = runLinkages(definition, data, c, state, linkageContext);
        data = result.data;
        state = result.pageState;
        errors.push(...result.errors);
      }
      dataRef.current = data;
      pageStateRef.current = state;
      setPageState(state);
      setLinkageErrors(errors);
      if (!props.value) setOwnData(data);
      props.onChange?.(data, cause);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [definition, props.value === undefined, props.onChange, linkageContext],
  );

  /** A custom button (spec §3): its assignments run over its view's rows, then the linkages that read what they wrote. */
  const runCustomAction = useCallback(
    (button: { id: string; assignments?: unknown }) => {
      const current = dataRef.current;
      const assignments = Array.isArray(button.assignments) ? (button.assignments as TAssignment[]) : [];
      if (!current || !assignments.length) return false;
      const synthetic: TPageDefinition = {
        ...definition,
        dataLinkages: [{ id: `button:${button.id}`, dataLinkType: 1, triggerConditions: [], assignments, pageEvents: [], pageStateControls: [] }],
      };
      const result = recomputeLinkages(synthetic, current, linkageContext);
      const changes = new Map<string, LinkageChange>();
      for (const e of result.effects) {
        if (e.type !== 'setValue') continue;
        const key = `${e.viewId}|${e.rowId}`;
        const c = changes.get(key) ?? { viewId: e.viewId, recordId: e.rowId, codes: [] };
        c.codes!.push(e.code);
        changes.set(key, c);
      }
      commit(result.state, [...changes.values()]);
      return true;
    },
    [definition, linkageContext, commit],
  );

  /** Fetches what new records wait for: document numbers, and defaults from a data source's query (kept only while the field is untouched). */
  const fetchPending = useCallback(
    (pending: PendingValue[]) => {
      for (const p of pending) {
        const view = flattenViews(definition).find((v) => v.view.id === p.viewId)?.view;
        const control = view?.dataControls.find((c) => c.id === p.dataControlId);
        if (!view || !control) continue;
        const put = (value: unknown) => {
          const current = dataRef.current;
          const record = current ? rowsOf(current, p.viewId).find((r) => r.Id === p.recordId) : undefined;
          if (!current || !record || (p.kind === 'fetchSourceDefault' && !Object.is(record[p.code], p.initial))) return;
          commit(patchRecord(current, p.viewId, p.recordId, { [p.code]: value }), { viewId: p.viewId, recordId: p.recordId, codes: [p.code] }, 'load');
        };
        if (p.kind === 'fetchDocumentNumber') services?.fetchDocumentNumber?.(control, view).then(put, () => undefined);
        else {
          const record = dataRef.current ? rowsOf(dataRef.current, p.viewId).find((r) => r.Id === p.recordId) : undefined;
          services?.fetchSourceDefault?.(control, view, record ?? ({} as TBusinessRecord)).then((value) => {
            if (value === null || value === undefined) return;
            // The query's value as the control stores it; one it cannot take leaves the control's own default.
            const parsed = getControlType(control.controlType).parse(value, control, { locale: linkageContext.locale, offsetMinutes: context.offsetMinutes });
            if (parsed.ok) put(parsed.value);
          }, () => undefined);
        }
      }
    },
    [services, definition, commit, linkageContext.locale, context.offsetMinutes],
  );

  // New page or a definition change: make the master records, fetch document numbers, run linkages.
  useEffect(() => {
    pageStateRef.current = { hidden: new Set(), readOnly: new Set() };
    const made = data ? ensureRecords(definition, data, context) : initialPageData(definition, context);
    commit(made.data, null, 'load');
    fetchPending(made.pending);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [definition]);

  const computed = useMemo(() => computedControlIds(definition), [definition]);
  const value: RendererContextValue | null = useMemo(() => {
    if (!data) return null;
    return {
      definition,
      data,
      mode,
      readOnly,
      fixedRowViews,
      services,
      pageState,
      computed,
      problemOf(view: TView, record: TBusinessRecord, control: TDataControl) {
        if (!showAllErrors && !touched.has(touchKey(view.id, record.Id, control.code))) return null;
        if (control.isDisplayed === false || pageState.hidden.has(control.id)) return null;
        const problem = checkControlValue(control, record[control.code]);
        // A computed value is stored at the field's accuracy: its decimals are not the user's to fix.
        return problem?.key === 'decimals' && computed.has(control.id) ? null : problem;
      },
      setField(view, recordId, control, fieldValue, extra) {
        const current = dataRef.current;
        if (!current) return;
        setTouched((s) => new Set(s).add(touchKey(view.id, recordId, control.code)));
        commit(patchRecord(current, view.id, recordId, { ...extra, [control.code]: fieldValue }), { viewId: view.id, recordId, codes: [control.code, ...Object.keys(extra ?? {})] });
      },
      addRows(view, parentRecordId, count = 1) {
        const current = dataRef.current;
        if (!current) return;
        const made = Array.from({ length: count }, () => newRow(view, { ...context, parentRecordId }));
        commit(withRows(current, view.id, [...rowsOf(current, view.id), ...made.map((m) => m.record)]), { viewId: view.id, recordId: made[0]?.record.Id ?? '', codes: null });
        fetchPending(made.flatMap((m) => m.pending));
      },
      copyRows(view, ids) {
        const current = dataRef.current;
        if (!current) return;
        const rows = rowsOf(current, view.id);
        const copies = rows.filter((r) => ids.includes(r.Id)).map((r) => ({ ...r, Id: newGuid(), DataStatus: 2, isLink: false }));
        commit(withRows(current, view.id, [...rows, ...copies]), { viewId: view.id, recordId: copies[0]?.Id ?? '', codes: null });
      },
      deleteRows(view, ids) {
        const current = dataRef.current;
        if (!current) return;
        commit(withRows(current, view.id, rowsOf(current, view.id).filter((r) => !ids.includes(r.Id))), { viewId: view.id, recordId: '', codes: null });
      },
      runButton(button, view) {
        if (buttonAction(button as { buttonType?: string | number | null }) === 'custom') runCustomAction(button as { id: string; assignments?: unknown });
        props.onButton?.(button, view);
      },
    };
  }, [data, definition, computed, mode, readOnly, fixedRowViews, services, pageState, touched, showAllErrors, commit, fetchPending, runCustomAction, context, props.onButton]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!definition.viewControls.length) return <Empty description={t('noViews')} />;
  if (!value) return null;

  const pageButtons = definition.pageButtons.filter((b) => !pageState.hidden.has(b.id));
  return (
    <RendererContext.Provider value={value}>
      <div className="tessera-page" data-mode={mode}>
        {pageButtons.length > 0 && (
          <Space style={{ marginBottom: 12 }} wrap>
            {pageButtons.map((b) => (
              <Button
                key={b.id}
                type={buttonAction(b) === 'save' ? 'primary' : 'default'}
                loading={props.busyButtonId === b.id}
                disabled={readOnly || pageState.readOnly.has(b.id) || (Boolean(props.busyButtonId) && props.busyButtonId !== b.id)}
                onClick={() => value.runButton(b, null)}
              >
                {localizedTitle(b as { title: string; code?: string | null }, i18n.language)}
              </Button>
            ))}
          </Space>
        )}
        {linkageErrors.length > 0 && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            message={linkageErrors.slice(0, 3).map((e) => t('linkageError', { name: e.linkageId, message: e.message })).join('；')}
          />
        )}
        <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
          {definition.viewControls.map((view) => (
            <ViewBlock key={view.id} view={view} parentRecordId={null} />
          ))}
        </div>
      </div>
    </RendererContext.Provider>
  );
}

/** One view and the views nested in it; `parentRecordId` is the record its rows belong to. */
function ViewBlock({ view, parentRecordId }: { view: TView; parentRecordId: string | null }) {
  const { i18n } = useTranslation('pageRenderer');
  return <RendererContext.Consumer>{(ctx) => (ctx ? renderView(ctx, view, parentRecordId, i18n.language) : null)}</RendererContext.Consumer>;
}

function renderView(ctx: RendererContextValue, view: TView, parentRecordId: string | null, language: string): ReactNode {
  if (ctx.pageState.hidden.has(view.id)) return null;
  const kind = viewKind(view);
  const title = viewTitle(view, language);
  const children = (view.viewControls ?? []).filter((v) => !ctx.pageState.hidden.has(v.id));
  if (kind === 'container') {
    if (!children.length) return null;
    return (
      <Card size="small" data-view-code={view.code} styles={{ body: { paddingTop: 0 } }}>
        <Tabs
          items={children.map((child) => ({
            key: child.id,
            label: viewTitle(child, language),
            forceRender: true,
            children: <ViewBlock view={child} parentRecordId={parentRecordId} />,
          }))}
        />
      </Card>
    );
  }
  if (kind === 'grid') {
    return (
      <Card size="small" title={title}>
        <GridView view={view} parentRecordId={parentRecordId} />
      </Card>
    );
  }
  const record = parentRecordId ? childRowsOf(ctx.data, view, parentRecordId)[0] : rowsOf(ctx.data, view.id)[0];
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
      <Card size="small" title={title} data-view-code={view.code}>
        <FormView view={view} record={record} />
      </Card>
      {record &&
        children.map((child) => (
          <ViewBlock key={child.id} view={child} parentRecordId={record.Id} />
        ))}
    </div>
  );
}
