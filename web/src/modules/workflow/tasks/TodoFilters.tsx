import { FilterOutlined } from '@ant-design/icons';
import { App, Button, Checkbox, DatePicker, Input, List, Modal, Select, Typography, type ButtonProps } from 'antd';
import type { TBatchApproveResult } from '@tessera/core/contracts/workflow-runtime';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newRequestId } from '../runtime/api.ts';
import { useBatchApprove, useTodoFacets, type TodoFilters } from './api.ts';
import './i18n.ts';

/** The to-do list's filters: flow and initiator (from my open tasks, with counts), arrival time range, overdue only. */
export function TodoFilterBar({ value, onChange, phone = false }: { value: TodoFilters; onChange(change: Partial<TodoFilters>): void; phone?: boolean }) {
  const { t } = useTranslation('workflowTasks');
  const [shown, setShown] = useState(false);
  const active = [value.definitionId, value.initiatorId, value.from || value.to, value.overdue].filter(Boolean).length;
  if (phone && !shown) {
    // On a phone the filters wait behind one button (the list is the point of the screen).
    return (
      <Button icon={<FilterOutlined />} onClick={() => setShown(true)} data-testid="todo-filters-toggle">
        {active ? t('filter.buttonCount', { count: active }) : t('filter.button')}
      </Button>
    );
  }
  const full = phone ? { width: '100%' } : undefined;
  return <TodoFilterFields value={value} onChange={onChange} full={full} />;
}

function TodoFilterFields({ value, onChange, full }: { value: TodoFilters; onChange(change: Partial<TodoFilters>): void; full?: { width: string } }) {
  const { t } = useTranslation('workflowTasks');
  const facets = useTodoFacets();
  const range: [Dayjs | null, Dayjs | null] | null = value.from || value.to ? [value.from ? dayjs(value.from) : null, value.to ? dayjs(value.to) : null] : null;
  return (
    <>
      <Select
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        placeholder={t('filter.flow')}
        style={full ?? { width: 180 }}
        loading={facets.isLoading}
        value={value.definitionId}
        onChange={(v?: string) => onChange({ definitionId: v })}
        options={(facets.data?.flows ?? []).map((f) => ({ value: f.id, label: `${f.name} (${f.count})` }))}
        notFoundContent={t('filter.none')}
        data-testid="todo-filter-flow"
      />
      <Select
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        placeholder={t('filter.initiator')}
        style={full ?? { width: 160 }}
        loading={facets.isLoading}
        value={value.initiatorId}
        onChange={(v?: string) => onChange({ initiatorId: v })}
        options={(facets.data?.initiators ?? []).map((i) => ({ value: i.id, label: `${i.name ?? '—'} (${i.count})` }))}
        notFoundContent={t('filter.none')}
        data-testid="todo-filter-initiator"
      />
      <DatePicker.RangePicker
        allowEmpty={[true, true]}
        placeholder={[t('filter.from'), t('filter.to')]}
        value={range}
        onChange={(v) => onChange({ from: v?.[0]?.startOf('day').toISOString(), to: v?.[1]?.endOf('day').toISOString() })}
        style={full ?? { width: 260 }}
        data-testid="todo-filter-range"
      />
      <Checkbox checked={Boolean(value.overdue)} onChange={(e) => onChange({ overdue: e.target.checked || undefined })} data-testid="todo-filter-overdue">
        {t('filter.overdueOnly')}
      </Checkbox>
    </>
  );
}

/**
 * 批量同意: the selected tasks (only those whose node allows approve can be selected) with one
 * comment; the answer lists what could not be approved and why.
 */
export function BatchApproveButton({ taskIds, onDone }: { taskIds: string[]; onDone(): void }) {
  const { t } = useTranslation('workflowTasks');
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [comment, setComment] = useState('');
  const [requestId, setRequestId] = useState(() => newRequestId());
  const [failed, setFailed] = useState<TBatchApproveResult['results']>([]);
  const batch = useBatchApprove();
  const close = () => {
    setOpen(false);
    setFailed([]);
    setComment('');
  };
  const submit = () =>
    batch.mutate(
      { taskIds, comment: comment.trim() || undefined, clientRequestId: requestId },
      {
        onSuccess: (answer) => {
          const done = answer.results.filter((r) => r.ok).length;
          const notDone = answer.results.filter((r) => !r.ok);
          // A later batch is a new request; a retry of this one (the answer was lost) keeps its id.
          setRequestId(newRequestId());
          onDone();
          if (notDone.length === 0) {
            message.success(t('batch.done', { count: done }));
            close();
          } else {
            message.warning(t('batch.partly', { done, failed: notDone.length }));
            setFailed(notDone);
          }
        },
      },
    );
  return (
    <>
      <Button type="primary" disabled={taskIds.length === 0} onClick={() => setOpen(true)} data-testid="todo-batch-approve">
        {taskIds.length ? t('batch.buttonCount', { count: taskIds.length }) : t('batch.button')}
      </Button>
      <Modal
        open={open}
        title={t('batch.title', { count: taskIds.length })}
        okText={t('batch.ok')}
        cancelText={t('batch.cancel')}
        onOk={submit}
        okButtonProps={{ loading: batch.isPending, disabled: failed.length > 0, 'data-testid': 'todo-batch-ok' } as ButtonProps}
        onCancel={close}
        destroyOnHidden
      >
        {failed.length > 0 ? (
          <List
            size="small"
            header={<Typography.Text type="warning">{t('batch.failedHeader')}</Typography.Text>}
            dataSource={failed}
            renderItem={(r) => <List.Item data-testid="todo-batch-failed">{r.message}</List.Item>}
          />
        ) : (
          <Input.TextArea
            autoFocus
            rows={3}
            maxLength={2000}
            placeholder={t('batch.commentPlaceholder')}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            data-testid="todo-batch-comment"
          />
        )}
      </Modal>
    </>
  );
}
