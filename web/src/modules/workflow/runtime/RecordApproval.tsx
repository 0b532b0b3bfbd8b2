import { DownOutlined } from '@ant-design/icons';
import { Alert, App, Button, Checkbox, Descriptions, Drawer, Dropdown, Form, Input, Modal, Radio, Select, Skeleton, Space, Tooltip, Typography } from 'antd';
import type { TWorkflowForRecord, TWorkflowInstance, TWorkflowTask } from '@tessera/core/contracts/workflow-runtime';
import dayjs from 'dayjs';
import { lazy, Suspense, useEffect, useState, type KeyboardEvent as ReactKeyboardEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { FlowStatusTag } from '../../../shared/components/FlowStatusTag.tsx';
import { SelectionItemPicker } from '../../../shared/components/SelectionItemPicker.tsx';
import type { RecordExtraProps } from '../../../shared/components/record-extras.ts';
import type { RecordEdits, RecordEditsRef } from '../../../shared/components/record-view.ts';
import { validValues } from '../../../shared/ui/form-values.ts';
import { newRequestId, useStartWorkflow, useTaskAction, useUrgeWorkflow, useWithdrawWorkflow, useWorkflowForRecord, useWorkflowInstance, type TaskAction } from './api.ts';
import { FlowTimeline } from './FlowTimeline.tsx';
import { isShortcut, SHORTCUTS } from './shortcuts.ts';
import './i18n.ts';

// The canvas library loads with the drawer, not with every business page.
const ProgressGraph = lazy(() => import('./ProgressGraph.tsx'));

const time = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '—');
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The approval bar of a business record (issue 13): its approval status; submit for approval when a
 * flow applies (picking the approvers of nodes chosen at submit); approve / reject / return /
 * transfer and, under "more", delegate / add or remove signers / CC when the caller holds the
 * pending task; take back (拿回) an approval while the next node is untouched; withdraw and urge
 * (催办) for the initiator; the flow's progress and history in a drawer.
 * With the record form's `edits` (the record page, the approval page), approve sends the approver's unsaved edits of the form with it:
 * the server saves them and approves in one transaction, or does neither (issue 14).
 */
export default function RecordApproval({ pageId, recordId, flowStatus, onChanged, shortcuts = false, edits }: RecordExtraProps & { shortcuts?: boolean }) {
  const { t } = useTranslation('workflowRuntime');
  const { message, modal } = App.useApp();
  const state = useWorkflowForRecord(pageId, recordId);
  const start = useStartWorkflow();
  const withdraw = useWithdrawWorkflow();
  const urge = useUrgeWorkflow();
  const act = useTaskAction();
  const [acting, setActing] = useState<ModalAction | null>(null);
  // Approve checks the form's edits first: an invalid form opens no dialog, its fields say what to fix.
  const [withEdits, setWithEdits] = useState(false);
  const openApprove = async () => {
    try {
      setWithEdits(Boolean(await edits?.current?.collect()));
    } catch (err) {
      message.error(t('page.editsInvalid', { message: errorText(err) }));
      return;
    }
    setActing('approve');
  };
  const [submitting, setSubmitting] = useState<Startable | null>(null);
  const [showProgress, setShowProgress] = useState(false);
  const info = state.data;
  const status = info?.flowStatus ?? flowStatus;
  const failed = (err: unknown) => message.error(err instanceof ApiError ? err.message : String(err));

  const submit = (definitionId: string) => {
    const chosen = info?.startableDefinitions.find((d) => d.id === definitionId);
    if (chosen?.chosenNodes.length) return setSubmitting(chosen);
    modal.confirm({
      title: t('submitTitle'),
      content: t('submitConfirm'),
      onOk: async () => {
        try {
          await start.mutateAsync({ pageId, recordId, definitionId, clientRequestId: newRequestId() });
          message.success(t('submitted'));
          onChanged();
        } catch (err) {
          failed(err);
        }
      },
    });
  };

  const reclaimable = info?.myReclaimableTask ?? null;
  const reclaim = () =>
    modal.confirm({
      title: t('reclaim'),
      content: t('reclaimConfirm'),
      onOk: async () => {
        try {
          await act.mutateAsync({ taskId: reclaimable!.id, action: 'reclaim', input: { clientRequestId: newRequestId() } });
          message.success(t('reclaimed'));
          onChanged();
        } catch (err) {
          failed(err);
        }
      },
    });

  const startable = info?.startableDefinitions ?? [];
  const task = info?.myPendingTask ?? null;
  const instance = info?.instance ?? null;
  // The approval page's keys (Alt+A approve, Alt+R reject): with Alt held they work while typing too.
  const canReject = !!task?.allowedActions.includes('reject');
  useEffect(() => {
    if (!shortcuts || !task || task.kind !== 'approve' || acting) return;
    const onKey = (e: KeyboardEvent) => {
      if (isShortcut(e, 'approve')) void openApprove();
      else if (canReject && isShortcut(e, 'reject')) setActing('reject');
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [shortcuts, task, acting, canReject]);
  const hint = (action: keyof typeof SHORTCUTS, button: ReactElement) =>
    shortcuts ? <Tooltip title={t('page.shortcut', { keys: SHORTCUTS[action].label })}>{button}</Tooltip> : button;
  return (
    <Space wrap data-testid="record-approval">
      <FlowStatusTag value={status} data-testid="flow-status" aria-label={t('statusLabel')} />
      {startable.length === 1 && (
        <Button type="primary" ghost onClick={() => submit(startable[0]!.id)} loading={start.isPending} data-testid="workflow-submit">
          {t('submit')}
        </Button>
      )}
      {startable.length > 1 && (
        <Dropdown menu={{ items: startable.map((d) => ({ key: d.id, label: d.name })), onClick: ({ key }) => submit(key) }}>
          <Button type="primary" ghost loading={start.isPending} data-testid="workflow-submit">
            {t('submit')}
          </Button>
        </Dropdown>
      )}
      {task && task.kind === 'approve' && (
        <>
          <Typography.Text type="secondary">{t(task.origin === 'delegate' ? 'delegatedToMe' : 'myTask', { node: task.nodeName })}</Typography.Text>
          {hint(
            'approve',
            <Button type="primary" onClick={() => void openApprove()} data-testid="workflow-approve" aria-keyshortcuts={shortcuts ? 'Alt+A' : undefined}>
              {task.origin === 'delegate' ? t('handBack') : t('approve')}
            </Button>,
          )}
          {task.allowedActions.includes('reject') &&
            hint(
              'reject',
              <Button danger onClick={() => setActing('reject')} data-testid="workflow-reject" aria-keyshortcuts={shortcuts ? 'Alt+R' : undefined}>
                {t('reject')}
              </Button>,
            )}
          {task.allowedActions.includes('return') && (
            <Button onClick={() => setActing('return')} data-testid="workflow-return">
              {t('return')}
            </Button>
          )}
          {task.allowedActions.includes('transfer') && (
            <Button onClick={() => setActing('transfer')} data-testid="workflow-transfer">
              {t('transfer')}
            </Button>
          )}
          {MORE_ACTIONS.some((a) => task.allowedActions.includes(a)) && (
            <Dropdown
              trigger={['click']}
              menu={{
                items: MORE_ACTIONS.filter((a) => task.allowedActions.includes(a)).map((a) => ({ key: a, label: t(a), 'data-testid': `workflow-${a}` })),
                onClick: ({ key }) => setActing(key as ModalAction),
              }}
            >
              <Button data-testid="workflow-more">
                {t('more')} <DownOutlined />
              </Button>
            </Dropdown>
          )}
        </>
      )}
      {reclaimable && (
        <Button onClick={reclaim} loading={act.isPending} data-testid="workflow-reclaim">
          {t('reclaim')}
        </Button>
      )}
      {info?.canUrge && instance && <UrgeButton instanceId={instance.id} onDone={() => void state.refetch()} busy={urge.isPending} urge={urge.mutateAsync} />}
      {info?.canWithdraw && instance && (
        <Button
          onClick={() =>
            modal.confirm({
              title: t('withdraw'),
              content: t('withdrawConfirm'),
              onOk: async () => {
                try {
                  await withdraw.mutateAsync({ instanceId: instance.id, input: { clientRequestId: newRequestId() } });
                  message.success(t('withdrawn'));
                  onChanged();
                } catch (err) {
                  failed(err);
                }
              },
            })
          }
          data-testid="workflow-withdraw"
        >
          {t('withdraw')}
        </Button>
      )}
      {instance && (
        <Button type="link" onClick={() => setShowProgress(true)} data-testid="workflow-progress">
          {t('progress')}
        </Button>
      )}
      {task && acting && <TaskActionModal task={task} action={acting} edits={acting === 'approve' ? edits : undefined} withEdits={acting === 'approve' && withEdits} onClose={() => setActing(null)} onDone={onChanged} />}
      {submitting && <SubmitModal pageId={pageId} recordId={recordId} definition={submitting} onClose={() => setSubmitting(null)} onDone={onChanged} />}
      {instance && <ProgressDrawer instance={instance} open={showProgress} onClose={() => setShowProgress(false)} />}
    </Space>
  );
}

type Startable = TWorkflowForRecord['startableDefinitions'][number];
/** The actions that open the modal (reclaim confirms, CC read happens in the task centre). */
type ModalAction = Exclude<TaskAction, 'reclaim' | 'ccRead'>;
/** Offered under "more" beside the main buttons. */
const MORE_ACTIONS = ['delegate', 'addSigner', 'removeSigner', 'cc'] as const satisfies readonly ModalAction[];

/** 催办: a reminder with an optional message to every pending assignee. */
function UrgeButton({ instanceId, onDone, busy, urge }: { instanceId: string; onDone(): void; busy: boolean; urge: ReturnType<typeof useUrgeWorkflow>['mutateAsync'] }) {
  const { t } = useTranslation('workflowRuntime');
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [comment, setComment] = useState('');
  const [requestId, setRequestId] = useState(newRequestId);
  const ok = async () => {
    try {
      await urge({ instanceId, input: { clientRequestId: requestId, comment: comment.trim() || undefined } });
      message.success(t('urged'));
      setOpen(false);
      setComment('');
      setRequestId(newRequestId());
      onDone();
    } catch (err) {
      message.error(err instanceof ApiError ? err.message : String(err));
    }
  };
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="workflow-urge">
        {t('urge')}
      </Button>
      <Modal open={open} title={t('urge')} onOk={() => void ok()} onCancel={() => setOpen(false)} confirmLoading={busy} destroyOnHidden data-testid="workflow-urge-modal">
        <Typography.Paragraph type="secondary">{t('urgeHint')}</Typography.Paragraph>
        <Input.TextArea rows={3} maxLength={2000} value={comment} onChange={(e) => setComment(e.target.value)} placeholder={t('urgePlaceholder')} aria-label={t('comment')} />
      </Modal>
    </>
  );
}

/** Submit with the approvers of the nodes the submitter picks (`chosenAtSubmit`). */
function SubmitModal({ pageId, recordId, definition, onClose, onDone }: { pageId: string; recordId: string; definition: Startable; onClose(): void; onDone(): void }) {
  const { t } = useTranslation('workflowRuntime');
  const { message } = App.useApp();
  const [form] = Form.useForm<Record<string, string[]>>();
  const start = useStartWorkflow();
  const [requestId] = useState(newRequestId);
  const ok = async () => {
    const values = await validValues(form);
    if (!values) return;
    try {
      const chosenAssignees = Object.fromEntries(definition.chosenNodes.map((n) => [n.nodeId, values[n.nodeId] ?? []]));
      await start.mutateAsync({ pageId, recordId, definitionId: definition.id, chosenAssignees, clientRequestId: requestId });
      message.success(t('submitted'));
      onClose();
      onDone();
    } catch (err) {
      message.error(err instanceof ApiError ? err.message : String(err));
    }
  };
  return (
    <Modal open title={`${t('submitTitle')} · ${definition.name}`} onOk={() => void ok()} onCancel={onClose} confirmLoading={start.isPending} destroyOnHidden data-testid="workflow-submit-modal">
      <Typography.Paragraph type="secondary">{t('submitConfirm')}</Typography.Paragraph>
      <Form form={form} layout="vertical">
        {definition.chosenNodes.map((n) => (
          <Form.Item key={n.nodeId} name={n.nodeId} label={t('chooseFor', { node: n.nodeName })} rules={n.required ? [{ required: true, type: 'array', min: 1, message: t('chooseRequired', { node: n.nodeName }) }] : []}>
            <SelectionItemPicker type={3} multiple presentation="select" context={{ workflow: { pageId, recordId } }} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}

interface ActionValues {
  comment?: string;
  targetNodeId?: string;
  userId?: string;
  userIds?: string[];
  position?: 'before' | 'after';
}

/**
 * One action on one task with a comment (required on reject when the node says so): approve,
 * reject, return (to a chosen node), transfer / delegate (one user), add signers (users, before or
 * after), remove signers (of the node's open ones), CC (users).
 */
function TaskActionModal({ task, action, edits, withEdits = false, onClose, onDone }: { task: TWorkflowTask; action: TaskAction; edits?: RecordEditsRef; withEdits?: boolean; onClose(): void; onDone(): void }) {
  const { t } = useTranslation('workflowRuntime');
  const { message } = App.useApp();
  const [form] = Form.useForm<ActionValues>();
  const act = useTaskAction();
  // One intent, one id: pressing OK twice (or the retry after a lost answer) is applied once.
  const [requestId] = useState(newRequestId);
  const ok = async () => {
    const values = await validValues(form);
    if (!values) return;
    // The form as it is now (approve only): never approve past the approver's unsaved edits.
    let record: RecordEdits | null = null;
    const handle = edits?.current ?? null;
    try {
      record = (await handle?.collect()) ?? null;
    } catch (err) {
      message.error(t('page.editsInvalid', { message: errorText(err) }));
      onClose();
      return;
    }
    try {
      await act.mutateAsync({
        taskId: task.id,
        action,
        input: {
          clientRequestId: requestId,
          comment: values.comment?.trim() || undefined,
          targetNodeId: values.targetNodeId || undefined,
          userIds: values.userId ? [values.userId] : values.userIds?.length ? values.userIds : undefined,
          position: action === 'addSigner' ? values.position : undefined,
          ...(record ? { record } : {}),
        },
      });
      if (record) handle?.saved();
      message.success(t('done'));
      onClose();
      onDone();
    } catch (err) {
      if (record && handle && isRecordRefusal(err)) {
        // Nothing was approved: the form keeps the edits and shows what to fix.
        handle.refused(err);
        message.error(t('page.editsRefused', { message: errorText(err) }));
        onClose();
        return;
      }
      message.error(errorText(err));
    }
  };
  const commentRequired = action === 'reject' && task.commentRequiredOnReject;
  const users = { workflow: { taskId: task.id } };
  const title = action === 'approve' && task.origin === 'delegate' ? t('handBack') : t(`actionTitle.${action}`);
  // Ctrl+Enter (⌘+Enter) confirms from anywhere in the dialog: the comment is a textarea, Enter is a new line.
  const onKeyDown = (e: ReactKeyboardEvent) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !act.isPending) {
      e.preventDefault();
      void ok();
    }
  };
  return (
    <Modal open title={title} onOk={() => void ok()} onCancel={onClose} confirmLoading={act.isPending} destroyOnHidden data-testid="workflow-action-modal" okButtonProps={{ title: t('page.confirmHint') }}>
      <Form form={form} layout="vertical" onKeyDown={onKeyDown}>
        {action === 'return' && task.returnTargets.length > 0 && (
          <Form.Item name="targetNodeId" label={t('returnTo')}>
            <Select allowClear placeholder={t('returnToDefault')} options={task.returnTargets.map((n) => ({ value: n.nodeId, label: n.nodeName }))} />
          </Form.Item>
        )}
        {(action === 'transfer' || action === 'delegate') && (
          <Form.Item name="userId" label={t(`${action}To`)} rules={[{ required: true, message: t('userRequired') }]}>
            <SelectionItemPicker type={3} presentation="select" context={users} />
          </Form.Item>
        )}
        {action === 'addSigner' && (
          <Form.Item name="position" label={t('signerPosition')} initialValue="before">
            <Radio.Group options={[{ value: 'before', label: t('signerBefore') }, { value: 'after', label: t('signerAfter') }]} />
          </Form.Item>
        )}
        {(action === 'addSigner' || action === 'cc') && (
          <Form.Item name="userIds" label={t(`${action}Users`)} rules={[{ required: true, type: 'array', min: 1, message: t('usersRequired') }]}>
            <SelectionItemPicker type={3} multiple presentation="select" context={users} />
          </Form.Item>
        )}
        {action === 'removeSigner' && (
          <Form.Item name="userIds" label={t('removeSignerUsers')} rules={[{ required: true, type: 'array', min: 1, message: t('usersRequired') }]}>
            <Checkbox.Group options={task.removableSigners.map((u) => ({ value: u.id, label: u.name ?? u.id }))} />
          </Form.Item>
        )}
        {withEdits && <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('page.editsIncluded')} data-testid="workflow-edits-included" />}
        <Form.Item name="comment" label={t('comment')} rules={commentRequired ? [{ required: true, whitespace: true, message: t('commentRequired') }] : []}>
          <Input.TextArea rows={3} maxLength={2000} autoFocus={action === 'approve' || action === 'reject' || action === 'return'} placeholder={commentRequired ? t('commentRequired') : t('commentPlaceholder')} data-testid="workflow-action-comment" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The server refused the record's edits (a field, the page or record, a stale stamp), not the approval itself. */
function isRecordRefusal(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err.validationErrors.some((v) => v.members?.some((m) => m === 'record' || m.startsWith('record.')))) return true;
  const code = (err.body as { error?: { code?: string } } | undefined)?.error?.code;
  return code === 'Conflict' || code === 'BusinessData.InApproval';
}

/** The instance: where it stands, who it waits for, and its history. */
function ProgressDrawer({ instance, open, onClose }: { instance: TWorkflowInstance; open: boolean; onClose(): void }) {
  const { t } = useTranslation('workflowRuntime');
  const detail = useWorkflowInstance(open ? instance.id : null);
  const [settled, setShown] = useState(false);
  const shown = detail.data ?? instance;
  return (
    <Drawer open={open} onClose={onClose} afterOpenChange={setShown} title={t('progress')} width={560} data-testid="workflow-progress-drawer">
      <Descriptions size="small" column={1} bordered items={[
        { key: 'definition', label: t('instance.definition'), children: `${shown.definitionName} · ${t('instance.version')} ${shown.version}` },
        { key: 'status', label: t('instance.status'), children: <span data-testid="workflow-instance-status">{t(`instanceStatus.${shown.status}`)}</span> },
        { key: 'initiator', label: t('instance.initiator'), children: shown.initiatorName ?? '—' },
        { key: 'started', label: t('instance.started'), children: time(shown.startedTime) },
        { key: 'ended', label: t('instance.ended'), children: time(shown.endedTime) },
        ...(shown.currentNodes.length
          ? [{
              key: 'current',
              label: t('instance.current'),
              children: shown.currentNodes.map((n) => (
                <div key={n.nodeId}>
                  {n.nodeName} · {t('instance.waiting', { names: n.pendingAssignees.map((a) => a.name ?? a.id).join('、') })}
                </div>
              )),
            }]
          : []),
      ]} />
      {/* After the drawer slid in: the canvas measures its nodes' handles where they end up. */}
      {detail.data && settled && (
        <Suspense fallback={<Skeleton active />}>
          <ProgressGraph detail={detail.data} />
        </Suspense>
      )}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('instance.history')}
      </Typography.Title>
      <div data-testid="workflow-history">{detail.data ? <FlowTimeline detail={detail.data} /> : <Skeleton active />}</div>
    </Drawer>
  );
}
