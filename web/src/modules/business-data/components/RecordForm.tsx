import { ArrowLeftOutlined, EditOutlined, HistoryOutlined, SaveOutlined } from '@ant-design/icons';
import { personDisplayName } from '@tessera/core/helpers/person-name';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Space, Spin, Tooltip } from 'antd';
import type { TPageDataResult, TPageRuntime } from '@tessera/core/contracts/business-data';
import { computedControlIds } from '@tessera/core/linkage/index';
import { flattenViews, linkagesOf, type TPageData, type TPageDefinition } from '@tessera/core/page-definition';
import { approverPageDefinition } from '@tessera/core/workflow/field-permissions';
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { ApiError } from '../../../shared/api/client.ts';
import { uploadControlFile } from '../../../shared/api/files.ts';
import { useSession } from '../../../shared/auth/session.ts';
import { PageRenderer, type ChangeCause, type PageRendererServices } from '../../../shared/components/page-renderer/PageRenderer.tsx';
import { checkControlValue } from '../../../shared/components/page-renderer/control-rules.ts';
import { recordExtras, useRecordEditGrant } from '../../../shared/components/record-extras.ts';
import type { RecordEditsHandle } from '../../../shared/components/record-view.ts';
import { businessDataKeys, deleteRecords, fetchDictionaryLabels, fetchSourceDefault, fetchSystemDate, offsetMinutes, queryDropDown, queryOpenWindow, queryPageData, reserveDocumentNumber, runButtonProcedure, savePage, voidDocumentNumber } from '../api/business-data.ts';
import { HistoryDrawer } from './HistoryDrawer.tsx';

const toPageData = (result: TPageDataResult): TPageData => ({
  viewDataList: result.viewDataList.map((v) => ({ viewId: v.viewId, dataList: v.dataList as TPageData['viewDataList'][number]['dataList'] })),
});

/** Dictionary codes named by DICT("code", …) in the page's linkage and control formulas (every string of them is read). */
export function dictionaryCodesOf(definition: TPageDefinition): string[] {
  const codes = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      for (const m of v.matchAll(/\bDICT\s*\(\s*(["'])([^"']+)\1/gi)) codes.add(m[2]!);
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') Object.values(v).forEach(visit);
  };
  visit(linkagesOf(definition));
  return [...codes];
}

/**
 * Clock offset to the server (spec §4: date defaults use the server date) and the labels of the
 * dictionaries the page's DICT() formulas name, so the browser computes what the server's save
 * recompute computes. Null while loading; a failed request falls back to the browser clock / no labels.
 */
function useRuntimeContext(definition: TPageDefinition, language: string) {
  const [clockOffset, setClockOffset] = useState<number | null>(null);
  const [dictionaries, setDictionaries] = useState<Map<string, Map<string, string>> | null>(null);
  useEffect(() => {
    let live = true;
    const sent = Date.now();
    fetchSystemDate().then(
      (r) => {
        const server = Date.parse(r.date);
        // The server read its clock about halfway through the round trip.
        if (live) setClockOffset(Number.isFinite(server) ? server - (sent + Date.now()) / 2 : 0);
      },
      () => live && setClockOffset(0),
    );
    return () => {
      live = false;
    };
  }, []);
  const codes = useMemo(() => dictionaryCodesOf(definition).join('\n'), [definition]);
  useEffect(() => {
    let live = true;
    // A language switch keeps the renderer (and what the user typed) on screen: the labels of
    // the old language serve until those of the new one arrive.
    const list = codes ? codes.split('\n') : [];
    Promise.all(list.map((code) => fetchDictionaryLabels(code).then((labels) => [code, labels] as const, () => [code, new Map<string, string>()] as const))).then(
      (entries) => live && setDictionaries(new Map(entries)),
    );
    return () => {
      live = false;
    };
  }, [codes, language]);
  return { clockOffset, dictionaries };
}

/**
 * Numbers reserved for a new record (docNoOccasion 1) that no save has used yet. Leaving the form
 * unsaved — back to the list, another page, closing the tab or the browser — voids them (issue 12;
 * the request is kept alive while the page goes away); numbers nobody voided are swept by the
 * server after a day.
 */
function useReservedNumbers(pageId: string) {
  const held = useRef(new Map<string, string>());
  const alive = useRef(false);
  const voidAll = useCallback(() => {
    for (const [controlId, docNo] of held.current) voidDocumentNumber(pageId, controlId, docNo).catch(() => undefined);
    held.current.clear();
  }, [pageId]);
  useEffect(() => {
    alive.current = true;
    window.addEventListener('pagehide', voidAll);
    return () => {
      alive.current = false;
      window.removeEventListener('pagehide', voidAll);
      // Unmounted for good, not remounted at once (React's development double mount).
      setTimeout(() => alive.current || voidAll(), 0);
    };
  }, [voidAll]);
  const reserve = useCallback(
    async (controlId: string) => {
      const { docNo } = await reserveDocumentNumber(pageId, controlId);
      const previous = held.current.get(controlId);
      if (previous && previous !== docNo) voidDocumentNumber(pageId, controlId, previous).catch(() => undefined);
      held.current.set(controlId, docNo);
      return docNo;
    },
    [pageId],
  );
  /** After a save: the numbers are the record's now. */
  const used = useCallback(() => held.current.clear(), []);
  return useMemo(() => ({ reserve, used }), [reserve, used]);
}

/** How many editable, shown fields hold a value their control refuses (required, type, length, range). */
function invalidFieldCount(definition: TPageDefinition, data: TPageData): number {
  const computed = computedControlIds(definition);
  let count = 0;
  for (const { view } of flattenViews(definition)) {
    const rows = data.viewDataList.find((v) => v.viewId === view.id)?.dataList ?? [];
    const checked = view.dataControls.filter((c) => c.isEdit !== false && c.isDisplayed !== false && !computed.has(c.id));
    for (const row of rows) for (const c of checked) if (checkControlValue(c, row[c.code])) count++;
  }
  return count;
}

/**
 * One record: the page renderer (master form, child grids, every control type, defaults, live
 * linkages, lookups) with the runtime's services; Ctrl+S saves; leaving with unsaved changes asks.
 */
export function RecordForm({
  runtime,
  definition,
  recordId,
  viewOnly = false,
  withExtras = true,
  onEdit,
  onBack,
  onSaved,
  onFormHandle,
}: {
  runtime: TPageRuntime;
  definition: TPageDefinition;
  recordId: string | null;
  /** The record is open to read: every field read-only, no save; an edit button when the user may edit. */
  viewOnly?: boolean;
  /** The record extras (approval bar) beside the buttons; false where the host shows them itself (the approval page's footer). */
  withExtras?: boolean;
  onEdit?(): void;
  onBack(): void;
  onSaved(id: string): void;
  /** The unsaved edits for a host that stores them with its own request (the approval bar, record-view.ts). */
  onFormHandle?(handle: RecordEditsHandle | null): void;
}) {
  const { t, i18n } = useTranslation('businessData');
  const { message } = App.useApp();
  const { clockOffset, dictionaries } = useRuntimeContext(definition, i18n.language);
  const client = useQueryClient();
  const user = useSession((s) => s.user);
  const [data, setData] = useState<TPageData | undefined>(undefined);
  const [loading, setLoading] = useState(Boolean(recordId));
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  // The page button whose save is under way (a run-procedure button spins while its procedure runs).
  const [busyButtonId, setBusyButtonId] = useState<string | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  // The host's check of the edits found a field to fix: every field shows its message.
  const [checkFailed, setCheckFailed] = useState(false);
  const [showHistory, setShowHistory] = useState(false);
  const numbers = useReservedNumbers(runtime.pageId);
  // Read again after another module changed the record (submitted for approval, approved…).
  const [readCount, setReadCount] = useState(0);

  useEffect(() => {
    if (!recordId) return;
    let live = true;
    queryPageData(runtime.pageId, recordId).then(
      (result) => live && (setData(toPageData(result)), setLoading(false)),
      () => live && setLoading(false),
    );
    return () => {
      live = false;
    };
  }, [runtime.pageId, recordId, readCount]);
  const reread = useCallback(() => {
    setReadCount((n) => n + 1);
    void client.invalidateQueries({ queryKey: businessDataKeys.list(runtime.pageId) });
    if (recordId) void client.invalidateQueries({ queryKey: businessDataKeys.history(runtime.pageId, recordId) });
  }, [client, runtime.pageId, recordId]);
  // The approval status (system column): a record in approval cannot be changed…
  const flowStatus = Number(data?.viewDataList.find((v) => v.viewId === runtime.masterViewId)?.dataList[0]?.FlowStatus ?? 0);
  const inApproval = flowStatus === 1;
  // …except by the holder of a pending approval task, in the fields their node marks editable (issue
  // 13): those open for input even without the page's own edit rights, hidden ones are not shown,
  // the lines of a view stay fixed unless every field of it is editable. The server enforces it.
  const grant = useRecordEditGrant(runtime.pageId, recordId, flowStatus);
  const approver = useMemo(
    () => (inApproval && grant ? approverPageDefinition(definition, grant.fieldPermissions, (c) => c.isEdit !== false || runtime.fields[c.code]?.edit === false) : null),
    [inApproval, grant, definition, runtime.fields],
  );
  const approverEdits = Boolean(grant && inApproval && Object.values(grant.fieldPermissions).includes('editable'));

  const services = useMemo<PageRendererServices>(
    () => ({
      queryLookup: async (q) => {
        const result = await queryOpenWindow({ pageId: runtime.pageId, dataControlId: q.control.id, filter: q.filter, record: q.record, skipCount: q.skipCount, maxResultCount: q.maxResultCount });
        return { items: result.items, totalCount: result.totalCount, columns: result.columns };
      },
      loadOptions: async (control, record) => (await queryDropDown(runtime.pageId, control.id, record)).items.map((i) => ({ value: i.value, label: i.label })),
      now: () => new Date(Date.now() + (clockOffset ?? 0)),
      dictionary: (code, value) => dictionaries?.get(code)?.get(value) ?? null,
      fetchDocumentNumber: (control) => numbers.reserve(control.id),
      fetchSourceDefault: (control, _view, record) => fetchSourceDefault(runtime.pageId, control.id, record),
      pickerContext: (control) => ({ pageId: runtime.pageId, dataControlId: control.id }),
      uploadFile: (control, file, onProgress) => uploadControlFile(runtime.pageCode, control.code, file, onProgress),
      currentUser: user ? { id: user.userId, title: personDisplayName(user, i18n.language), type: 3 } : null,
      currentOrgUnit: user?.organizationUnitId ? { id: user.organizationUnitId, title: user.organizationUnitName ?? '', type: 1 } : null,
    }),
    [runtime.pageId, runtime.pageCode, user, clockOffset, dictionaries, i18n.language, numbers],
  );

  const onChange = useCallback((next: TPageData, cause: ChangeCause) => {
    setData(next);
    // Only the user's edits make the form dirty: the renderer filling defaults, running linkages
    // or receiving a document number (again after a language switch) is no edit.
    if (cause === 'edit') setDirty(true);
  }, []);

  /** Saves the form; through a "run procedure" button (`procedureButtonId`), its procedure runs with the save. */
  const save = useCallback(async (procedureButtonId?: string) => {
    if (!data || saving) return;
    setSaving(true);
    setBusyButtonId(procedureButtonId ?? null);
    setProblems([]);
    try {
      let result: TPageDataResult;
      if (procedureButtonId) {
        const answer = await runButtonProcedure(runtime.pageId, procedureButtonId, data.viewDataList);
        result = answer.page;
        if (answer.error) message.warning(t('procedureFailed', { message: answer.error }));
        else message.success(t('procedureRan', { count: answer.run?.rowCount ?? 0 }));
      } else {
        result = await savePage(runtime.pageId, data.viewDataList);
        message.success(t('saved'));
      }
      numbers.used();
      setData(toPageData(result));
      setDirty(false);
      await client.invalidateQueries({ queryKey: businessDataKeys.list(runtime.pageId) });
      const id = String(result.viewDataList.find((v) => v.viewId === runtime.masterViewId)?.dataList[0]?.Id ?? '');
      if (!recordId && id) onSaved(id);
      else await client.invalidateQueries({ queryKey: businessDataKeys.history(runtime.pageId, id) });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const list = err.validationErrors.map((v) => v.message);
      setProblems(list.length ? list : [err.message]);
      message.error(err.status === 409 ? t('conflict', { message: err.message }) : list.length ? t('invalid', { count: list.length }) : err.message);
    } finally {
      setSaving(false);
      setBusyButtonId(null);
    }
  }, [data, saving, runtime, message, t, client, recordId, onSaved, numbers]);

  // Ctrl+S / Cmd+S saves.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void save();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [save]);

  // Unsaved-changes guard: route changes (blocker) and closing the browser tab.
  const blocker = useBlocker(dirty);
  const { modal } = App.useApp();
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({ title: t('unsavedTitle'), content: t('unsavedText'), okText: t('leave'), cancelText: t('stay'), onOk: () => blocker.proceed(), onCancel: () => blocker.reset() });
  }, [blocker, modal, t]);
  useEffect(() => {
    if (!dirty) return;
    const onUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);

  const back = () => {
    if (!dirty) return onBack();
    modal.confirm({ title: t('unsavedTitle'), content: t('unsavedText'), okText: t('leave'), cancelText: t('stay'), onOk: onBack });
  };

  const canSave = approverEdits || (!viewOnly && !inApproval && (recordId ? runtime.actions.edit : runtime.actions.add));

  // The handle reads the form as it is when asked (issue 14: the approval bar's approve sends the approver's edits with it).
  const latest = useRef({ data, dirty, canSave, shown: approver?.definition ?? definition });
  useEffect(() => {
    latest.current = { data, dirty, canSave, shown: approver?.definition ?? definition };
  }, [data, dirty, canSave, approver, definition]);
  const handleRef = useRef<RecordEditsHandle | null>(null);
  useEffect(() => {
    const handle: RecordEditsHandle = {
      collect: async () => {
        const { data: current, dirty: changed, canSave: editable, shown } = latest.current;
        if (!current || !changed || !editable) return null;
        const invalid = invalidFieldCount(shown, current);
        if (invalid) {
          setCheckFailed(true);
          throw new Error(t('invalid', { count: invalid }));
        }
        return { pageId: runtime.pageId, viewDataList: current.viewDataList, offsetMinutes: offsetMinutes() };
      },
      saved: () => {
        numbers.used();
        setDirty(false);
        setProblems([]);
        setCheckFailed(false);
        reread();
      },
      refused: (err) => {
        if (!(err instanceof ApiError)) return;
        const list = err.validationErrors.map((v) => v.message);
        setProblems(list.length ? list : [err.message]);
      },
    };
    handleRef.current = handle;
    onFormHandle?.(handle);
    return () => {
      handleRef.current = null;
      onFormHandle?.(null);
    };
  }, [onFormHandle, runtime.pageId, numbers, reread, t]);
  // Page buttons of the design with a built-in action (the renderer runs custom assignment buttons itself).
  const onButton = useCallback(
    (button: { id?: string; buttonType?: unknown }) => {
      const action = String(button.buttonType ?? '');
      if (action === 'save' && canSave) void save();
      if (action === 'runProcedure' && canSave) void save((button as { id: string }).id);
      if (action === 'delete' && recordId && runtime.actions.delete) {
        modal.confirm({
          title: t('confirmDelete'),
          okButtonProps: { danger: true },
          onOk: async () => {
            await deleteRecords(runtime.pageId, [recordId]);
            message.success(t('deleted'));
            await client.invalidateQueries({ queryKey: businessDataKeys.list(runtime.pageId) });
            setDirty(false);
            onBack();
          },
        });
      }
    },
    [canSave, save, recordId, runtime, modal, t, message, client, onBack],
  );
  return (
    <Card
      title={
        <Space>
          <Button type="text" icon={<ArrowLeftOutlined />} onClick={back} aria-label={t('back')} />
          {viewOnly && !approverEdits ? t('view') : recordId ? t('edit') : t('newRecord')}
        </Space>
      }
      extra={
        <Space wrap>
          {recordId &&
            data &&
            withExtras &&
            recordExtras().map((Extra, i) => (
              <Suspense key={i} fallback={null}>
                <Extra pageId={runtime.pageId} recordId={recordId} flowStatus={flowStatus} onChanged={reread} edits={handleRef} />
              </Suspense>
            ))}
          {recordId && <Button icon={<HistoryOutlined />} onClick={() => setShowHistory(true)}>{t('history')}</Button>}
          {viewOnly && recordId && runtime.actions.edit && !inApproval && onEdit && (
            <Button type="primary" icon={<EditOutlined />} onClick={onEdit} data-testid="record-edit">
              {t('edit')}
            </Button>
          )}
          {canSave && (
            <Tooltip title={t('saveHint')}>
              <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()} data-testid="record-save">
                {t('save')}
              </Button>
            </Tooltip>
          )}
        </Space>
      }
    >
      {inApproval && !approverEdits && <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('inApproval')} data-testid="record-in-approval" />}
      {approverEdits && <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('approverEditing')} data-testid="record-approver-editing" />}
      {problems.length > 0 && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={problems.slice(0, 8).join('；')} />}
      {loading || clockOffset === null || dictionaries === null ? (
        <Spin />
      ) : (
        <PageRenderer
          definition={approver?.definition ?? definition}
          fixedRowViews={approver?.fixedRowViews}
          value={data}
          onChange={onChange}
          mode="runtime"
          readOnly={!canSave}
          services={services}
          showAllErrors={problems.length > 0 || checkFailed}
          onButton={onButton}
          busyButtonId={busyButtonId}
        />
      )}
      <HistoryDrawer pageId={runtime.pageId} recordId={recordId} open={showHistory} onClose={() => setShowHistory(false)} />
    </Card>
  );
}
