import { App, Button, Descriptions, Drawer, Dropdown, Form, Input, Modal, Select, Space, Timeline, Typography } from 'antd';
import type { TWorkflowInstance, TWorkflowTask } from '@tessera/core/contracts/workflow-runtime';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { FlowStatusTag } from '../../../shared/components/FlowStatusTag.tsx';
import { SelectionItemPicker } from '../../../shared/components/SelectionItemPicker.tsx';
import type { RecordExtraProps } from '../../../shared/components/record-extras.ts';
import { validValues } from '../../../shared/ui/form-values.ts';
import { newRequestId, useStartWorkflow, useTaskAction, useWithdrawWorkflow, useWorkflowForRecord, useWorkflowInstance, type TaskAction } from './api.ts';
import './i18n.ts';

const time = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '—');

/**
 * The approval bar of a business record (issue 13): its approval status; submit for approval when a
 * flow applies; approve / reject / return / transfer when the caller holds the pending task;
 * withdraw for the initiator; the flow's progress and history in a drawer.
 */
export default function RecordApproval({ pageId, recordId, flowStatus, onChanged }: RecordExtraProps) {
  const { t } = useTranslation('workflowRuntime');
  const { message, modal } = App.useApp();
  const state = useWorkflowForRecord(pageId, recordId);
  const start = useStartWorkflow();
  const withdraw = useWithdrawWorkflow();
  const [acting, setActing] = useState<TaskAction | null>(null);
  const [showProgress, setShowProgress] = useState(false);
  const info = state.data;
  const status = info?.flowStatus ?? flowStatus;
  const failed = (err: unknown) => message.error(err instanceof ApiError ? err.message : String(err));

  const submit = (definitionId?: string) =>
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

  const startable = info?.startableDefinitions ?? [];
  const task = info?.myPendingTask ?? null;
  const instance = info?.instance ?? null;
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
          <Typography.Text type="secondary">{t('myTask', { node: task.nodeName })}</Typography.Text>
          <Button type="primary" onClick={() => setActing('approve')} data-testid="workflow-approve">
            {t('approve')}
          </Button>
          {task.allowedActions.includes('reject') && (
            <Button danger onClick={() => setActing('reject')} data-testid="workflow-reject">
              {t('reject')}
            </Button>
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
        </>
      )}
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
      {task && acting && <TaskActionModal task={task} action={acting} onClose={() => setActing(null)} onDone={onChanged} />}
      {instance && <ProgressDrawer instance={instance} open={showProgress} onClose={() => setShowProgress(false)} />}
    </Space>
  );
}

interface ActionValues {
  comment?: string;
  targetNodeId?: string;
  userId?: string;
}

/** Approve, reject, return or transfer one task, with a comment (required on reject when the node says so). */
function TaskActionModal({ task, action, onClose, onDone }: { task: TWorkflowTask; action: TaskAction; onClose(): void; onDone(): void }) {
  const { t } = useTranslation('workflowRuntime');
  const { message } = App.useApp();
  const [form] = Form.useForm<ActionValues>();
  const act = useTaskAction();
  // One intent, one id: pressing OK twice (or the retry after a lost answer) is applied once.
  const [requestId] = useState(newRequestId);
  const ok = async () => {
    const values = await validValues(form);
    if (!values) return;
    try {
      await act.mutateAsync({
        taskId: task.id,
        action,
        input: {
          clientRequestId: requestId,
          comment: values.comment?.trim() || undefined,
          targetNodeId: values.targetNodeId || undefined,
          userIds: values.userId ? [values.userId] : undefined,
        },
      });
      message.success(t('done'));
      onClose();
      onDone();
    } catch (err) {
      message.error(err instanceof ApiError ? err.message : String(err));
    }
  };
  const commentRequired = action === 'reject' && task.commentRequiredOnReject;
  return (
    <Modal open title={t(`actionTitle.${action}`)} onOk={() => void ok()} onCancel={onClose} confirmLoading={act.isPending} destroyOnHidden data-testid="workflow-action-modal">
      <Form form={form} layout="vertical">
        {action === 'return' && task.returnTargets.length > 0 && (
          <Form.Item name="targetNodeId" label={t('returnTo')}>
            <Select allowClear placeholder={t('returnToDefault')} options={task.returnTargets.map((n) => ({ value: n.nodeId, label: n.nodeName }))} />
          </Form.Item>
        )}
        {action === 'transfer' && (
          <Form.Item name="userId" label={t('transferTo')} rules={[{ required: true, message: t('transferRequired') }]}>
            <SelectionItemPicker type={3} presentation="select" />
          </Form.Item>
        )}
        <Form.Item name="comment" label={t('comment')} rules={commentRequired ? [{ required: true, whitespace: true, message: t('commentRequired') }] : []}>
          <Input.TextArea rows={3} maxLength={2000} placeholder={commentRequired ? t('commentRequired') : t('commentPlaceholder')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The instance: where it stands, who it waits for, and its history. */
function ProgressDrawer({ instance, open, onClose }: { instance: TWorkflowInstance; open: boolean; onClose(): void }) {
  const { t } = useTranslation('workflowRuntime');
  const detail = useWorkflowInstance(open ? instance.id : null);
  const shown = detail.data ?? instance;
  return (
    <Drawer open={open} onClose={onClose} title={t('progress')} width={560} data-testid="workflow-progress-drawer">
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
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('instance.history')}
      </Typography.Title>
      <Timeline
        data-testid="workflow-history"
        items={(detail.data?.history ?? []).map((h) => ({
          key: h.id,
          color: h.action === 'reject' || h.action === 'autoReject' ? 'red' : h.action === 'approve' || h.action === 'autoApprove' ? 'green' : 'blue',
          children: (
            <div>
              <Typography.Text strong>{t(`history.${h.action}`)}</Typography.Text>
              {h.nodeName ? <Typography.Text type="secondary"> · {h.nodeName}</Typography.Text> : null}
              <div>
                {h.actorName ?? (h.actorId ? h.actorId : t('instance.system'))} · {time(h.time)}
              </div>
              {h.comment ? <Typography.Paragraph style={{ margin: 0 }}>{h.comment}</Typography.Paragraph> : null}
            </div>
          ),
        }))}
      />
    </Drawer>
  );
}
