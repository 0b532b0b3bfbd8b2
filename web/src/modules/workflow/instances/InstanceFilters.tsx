import { Button, DatePicker, Form, Input, Select } from 'antd';
import { WORKFLOW_INSTANCE_STATUSES, type TWorkflowInstanceStatus } from '@tessera/core/contracts/workflow-runtime';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { SelectionItemPicker } from '../../../shared/components/SelectionItemPicker.tsx';
import { useFlowChoices, type InstanceListQuery } from './api.ts';
import './i18n.ts';

interface FilterValues {
  Filter?: string;
  definitionId?: string;
  status?: TWorkflowInstanceStatus;
  initiatorId?: string | null;
  assigneeId?: string | null;
  started?: [Dayjs | null, Dayjs | null] | null;
  currentNodeName?: string;
}

/** The filters as the list's query: the started range from the first day's start to the last day's end. */
function toQuery(v: FilterValues): InstanceListQuery {
  const [from, to] = v.started ?? [null, null];
  return {
    Filter: v.Filter?.trim() || undefined,
    definitionId: v.definitionId || undefined,
    status: v.status || undefined,
    initiatorId: v.initiatorId || undefined,
    assigneeId: v.assigneeId || undefined,
    startedFrom: from ? from.startOf('day').toISOString() : undefined,
    startedTo: to ? to.endOf('day').toISOString() : undefined,
    currentNodeName: v.currentNodeName?.trim() || undefined,
  };
}

/** Flow management's filter bar: search, flow, status, initiator, current assignee, started range, current node. */
export function InstanceFilters({ onChange }: { onChange(query: InstanceListQuery): void }) {
  const { t } = useTranslation(['workflowInstances', 'workflowRuntime']);
  const [form] = Form.useForm<FilterValues>();
  const flows = useFlowChoices();
  return (
    <Form form={form} layout="inline" onFinish={(v) => onChange(toQuery(v))} style={{ rowGap: 8, marginBottom: 12 }} data-testid="instances-filters">
      <Form.Item name="Filter">
        <Input.Search allowClear placeholder={t('search')} style={{ width: 220 }} onSearch={() => form.submit()} data-testid="instances-search" />
      </Form.Item>
      <Form.Item name="definitionId" label={t('filter.flow')}>
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          style={{ width: 200 }}
          loading={flows.isLoading}
          options={(flows.data?.items ?? []).map((d) => ({ value: d.id, label: d.name }))}
          onChange={() => form.submit()}
          data-testid="instances-flow"
        />
      </Form.Item>
      <Form.Item name="status" label={t('filter.status')}>
        <Select
          allowClear
          style={{ width: 120 }}
          options={WORKFLOW_INSTANCE_STATUSES.map((s) => ({ value: s, label: t(`workflowRuntime:instanceStatus.${s}`) }))}
          onChange={() => form.submit()}
          data-testid="instances-status"
        />
      </Form.Item>
      <Form.Item name="initiatorId" label={t('filter.initiator')}>
        <SelectionItemPicker type={3} presentation="select" allowClear style={{ width: 160 }} aria-label={t('filter.initiator')} />
      </Form.Item>
      <Form.Item name="assigneeId" label={t('filter.assignee')}>
        <SelectionItemPicker type={3} presentation="select" allowClear style={{ width: 160 }} aria-label={t('filter.assignee')} />
      </Form.Item>
      <Form.Item name="started" label={t('filter.started')}>
        <DatePicker.RangePicker allowEmpty={[true, true]} placeholder={[t('filter.startedFrom'), t('filter.startedTo')]} />
      </Form.Item>
      <Form.Item name="currentNodeName" label={t('filter.node')}>
        <Input allowClear style={{ width: 150 }} maxLength={100} data-testid="instances-node" />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" data-testid="instances-apply">
          {t('searchButton')}
        </Button>
      </Form.Item>
      <Form.Item>
        <Button onClick={() => (form.resetFields(), form.submit())}>{t('reset')}</Button>
      </Form.Item>
    </Form>
  );
}
