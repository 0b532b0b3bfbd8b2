import { App, Form, Input, Modal, Radio, Select, Typography } from 'antd';
import type { TWorkflowInstanceDetail } from '@tessera/core/contracts/workflow-runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { SelectionItemPicker } from '../../../shared/components/SelectionItemPicker.tsx';
import { newRequestId } from '../runtime/api.ts';
import { useIntervention, type InterventionName } from './api.ts';
import './i18n.ts';

interface Values {
  reason: string;
  taskId?: string;
  userId?: string;
  targetNodeId?: string;
  nodeId?: string;
  userIds?: string[];
  mode?: 'add' | 'replace';
}

const OPEN = ['pending', 'waiting', 'suspended'];
const JUMP_TARGETS = ['approval', 'cc', 'end'];

/**
 * One intervention on a running instance: its own fields (the task and the user for 转办, the node
 * for 跳转, the node, users and mode for 加/替换审批人) and the reason every intervention requires.
 * One request id per opening: a double click or a retry is applied once.
 */
export function InterventionModal({ name, detail, onClose }: { name: InterventionName; detail: TWorkflowInstanceDetail; onClose(): void }) {
  const { t } = useTranslation('workflowInstances');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [clientRequestId] = useState(newRequestId);
  const mutation = useIntervention(name);
  const nodeName = (id: string) => detail.graph.nodes.find((n) => n.id === id)?.name || id;

  const submit = async () => {
    const v = await form.validateFields();
    const reason = v.reason.trim();
    const input =
      name === 'reassign'
        ? { reason, clientRequestId, taskId: v.taskId!, userId: v.userId! }
        : name === 'jump'
          ? { reason, clientRequestId, targetNodeId: v.targetNodeId! }
          : name === 'assignees'
            ? { reason, clientRequestId, nodeId: v.nodeId!, userIds: v.userIds!, mode: v.mode ?? 'add' }
            : { reason, clientRequestId };
    try {
      await mutation.mutateAsync({ instanceId: detail.id, input: input as never });
      message.success(t(`done.${name}`));
      onClose();
    } catch (err) {
      message.error(err instanceof ApiError ? err.message : String(err));
    }
  };

  const openTasks = detail.tasks.filter((x) => x.kind === 'approve' && OPEN.includes(x.status));
  const activeNodes = detail.nodes.filter((n) => n.type === 'approval' && n.state === 'active');
  return (
    <Modal open title={t(`actions.${name}`)} onOk={() => void submit()} onCancel={onClose} confirmLoading={mutation.isPending} destroyOnHidden data-testid="instance-intervention-modal">
      {name === 'terminate' && <Typography.Paragraph type="secondary">{t('modal.terminateHint')}</Typography.Paragraph>}
      {name === 'remind' && <Typography.Paragraph type="secondary">{t('modal.remindHint')}</Typography.Paragraph>}
      <Form form={form} layout="vertical" initialValues={{ mode: 'add', taskId: openTasks.length === 1 ? openTasks[0].id : undefined, nodeId: activeNodes.length === 1 ? activeNodes[0].nodeId : undefined }}>
        {name === 'reassign' && (
          <>
            <Form.Item name="taskId" label={t('modal.task')} rules={[{ required: true, message: t('modal.taskRequired') }]}>
              <Select
                data-testid="intervention-task"
                options={openTasks.map((x) => ({ value: x.id, label: t('modal.taskOption', { node: x.nodeName, user: x.assigneeName ?? x.assigneeId, status: t(`taskStatus.${x.status}`) }) }))}
              />
            </Form.Item>
            <Form.Item name="userId" label={t('modal.user')} rules={[{ required: true, message: t('modal.userRequired') }]}>
              <SelectionItemPicker type={3} presentation="select" />
            </Form.Item>
          </>
        )}
        {name === 'jump' && (
          <Form.Item name="targetNodeId" label={t('modal.target')} rules={[{ required: true, message: t('modal.targetRequired') }]}>
            <Select
              data-testid="intervention-target"
              options={detail.graph.nodes.filter((n) => JUMP_TARGETS.includes(n.type)).map((n) => ({ value: n.id, label: `${n.name || n.id} · ${t(`nodeTypes.${n.type}`)}` }))}
            />
          </Form.Item>
        )}
        {name === 'assignees' && (
          <>
            <Form.Item name="nodeId" label={t('modal.node')} rules={[{ required: true, message: t('modal.nodeRequired') }]}>
              <Select data-testid="intervention-node" options={activeNodes.map((n) => ({ value: n.nodeId, label: nodeName(n.nodeId) }))} />
            </Form.Item>
            <Form.Item name="userIds" label={t('modal.users')} rules={[{ required: true, type: 'array', min: 1, message: t('modal.usersRequired') }]}>
              <SelectionItemPicker type={3} multiple presentation="select" />
            </Form.Item>
            <Form.Item name="mode" label={t('modal.mode')}>
              <Radio.Group options={[{ value: 'add', label: t('modal.modeAdd') }, { value: 'replace', label: t('modal.modeReplace') }]} />
            </Form.Item>
          </>
        )}
        <Form.Item name="reason" label={t('modal.reason')} rules={[{ required: true, whitespace: true, message: t('modal.reasonRequired') }]}>
          <Input.TextArea rows={3} maxLength={2000} placeholder={t('modal.reasonPlaceholder')} data-testid="intervention-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
