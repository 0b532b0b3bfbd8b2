import { DownloadOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Card, DatePicker, Form, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { TAuditLog } from '@tessera/core/contracts/audit';
import { P } from '@tessera/core/contracts/permissions';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { Auth } from '../../../shared/components/Auth.tsx';
import { pickText } from '../../../shared/components/LocalizedTextInput.tsx';
import i18n from '../../../shared/i18n/i18n.ts';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { type AuditQuery, downloadAuditExport, useAuditActions, useAuditLogs } from '../api/audit-logs.ts';
import { AuditDetails } from '../components/AuditDetails.tsx';
import '../i18n.ts';

interface Filters {
  range?: [Dayjs | null, Dayjs | null] | null;
  userName?: string;
  actions?: string[];
  filter?: string;
}

const ACTION_COLORS: Record<string, string> = {
  LoginSucceeded: 'green',
  LoginFailed: 'orange',
  PermissionDenied: 'red',
  ValidationFailed: 'gold',
  Created: 'blue',
  Updated: 'geekblue',
  Deleted: 'volcano',
  Logout: 'default',
};

/** /system/audit: sign-ins, failed sign-ins, denials and data changes; filter, page, export. */
export default function AuditLogsPage() {
  const { t } = useTranslation('audit');
  const [form] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const [paging, setPaging] = useState({ current: 1, pageSize: 20 });
  const [sorting, setSorting] = useState<string | undefined>();
  const [exporting, setExporting] = useState(false);
  const criteria = {
    StartTime: filters.range?.[0]?.toISOString(),
    EndTime: filters.range?.[1]?.toISOString(),
    UserName: filters.userName?.trim() || undefined,
    Action: filters.actions?.length ? filters.actions.join(',') : undefined,
    Filter: filters.filter?.trim() || undefined,
    Sorting: sorting,
  };
  const query: AuditQuery = { ...criteria, SkipCount: (paging.current - 1) * paging.pageSize, MaxResultCount: paging.pageSize };
  const logs = useAuditLogs(query);
  const actions = useAuditActions();
  const actionLabel = (a: string) => t(`actions.${a}`, { defaultValue: a });

  const apply = (values: Filters) => {
    setFilters(values);
    setPaging((p) => ({ ...p, current: 1 }));
  };
  const exportFile = async () => {
    setExporting(true);
    try {
      await downloadAuditExport(criteria);
    } catch (err) {
      feedback.message?.error(err instanceof ApiError ? err.message : String(err));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card size="small" title={t('title')}>
      <Form form={form} layout="inline" onFinish={apply} style={{ rowGap: 8, marginBottom: 12 }}>
        <Form.Item name="range" label={t('filters.time')}>
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            allowEmpty={[true, true]}
            presets={[
              { label: t('filters.today'), value: [dayjs().startOf('day'), dayjs().endOf('day')] },
              { label: t('filters.last7'), value: [dayjs().subtract(7, 'day').startOf('day'), dayjs().endOf('day')] },
              { label: t('filters.last30'), value: [dayjs().subtract(30, 'day').startOf('day'), dayjs().endOf('day')] },
            ]}
          />
        </Form.Item>
        <Form.Item name="userName" label={t('filters.user')}>
          <Input allowClear style={{ width: 160 }} placeholder={t('filters.userPlaceholder')} />
        </Form.Item>
        <Form.Item name="actions" label={t('filters.action')}>
          <Select
            mode="multiple"
            allowClear
            maxTagCount="responsive"
            style={{ width: 240 }}
            placeholder={t('filters.actionPlaceholder')}
            loading={actions.isLoading}
            options={(actions.data?.items ?? []).map((a) => ({ value: a, label: actionLabel(a) }))}
          />
        </Form.Item>
        <Form.Item name="filter">
          <Input allowClear style={{ width: 200 }} placeholder={t('filters.text')} />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
              {t('search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                apply({});
              }}
            >
              {t('reset')}
            </Button>
            <Button icon={<ReloadOutlined />} onClick={() => logs.refetch()} aria-label={t('refresh')} />
            <Auth code={P.AuditLogsExport}>
              <Button icon={<DownloadOutlined />} loading={exporting} onClick={exportFile}>
                {t('export')}
              </Button>
            </Auth>
          </Space>
        </Form.Item>
      </Form>
      <Table<TAuditLog>
        size="small"
        rowKey="id"
        loading={logs.isFetching}
        dataSource={logs.data?.items ?? []}
        locale={{ emptyText: t('empty') }}
        showSorterTooltip={false}
        expandable={{ expandedRowRender: (log) => <AuditDetails log={log} />, rowExpandable: () => true }}
        pagination={{
          ...paging,
          total: logs.data?.totalCount ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [20, 50, 100, 200],
          showTotal: (n) => t('total', { count: n }),
        }}
        onChange={(p, _f, sorter) => {
          setPaging({ current: p.current ?? 1, pageSize: p.pageSize ?? 20 });
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          setSorting(s?.order ? `${String(s.field)} ${s.order === 'descend' ? 'desc' : 'asc'}` : undefined);
        }}
        columns={[
          {
            title: t('columns.time'),
            dataIndex: 'time',
            key: 'time',
            width: 180,
            sorter: true,
            defaultSortOrder: 'descend',
            render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm:ss'),
          },
          {
            title: t('columns.user'),
            dataIndex: 'userName',
            key: 'userName',
            width: 180,
            sorter: true,
            render: (v: string | null, row: TAuditLog) =>
              row.name && row.name !== v ? (
                <span>
                  {row.name} <Typography.Text type="secondary">({v})</Typography.Text>
                </span>
              ) : (
                (v ?? <Typography.Text type="secondary">—</Typography.Text>)
              ),
          },
          {
            title: t('columns.action'),
            dataIndex: 'action',
            key: 'action',
            width: 150,
            sorter: true,
            render: (v: string) => <Tag color={ACTION_COLORS[v] ?? 'default'}>{actionLabel(v)}</Tag>,
          },
          {
            title: t('columns.entityType'),
            dataIndex: 'entityType',
            key: 'entityType',
            width: 170,
            sorter: true,
            // Named in the interface language; a type this screen does not know shows its code.
            render: (v: string | null) => (v ? t(`entityTypes.${v}`, { defaultValue: v }) : '—'),
          },
          { title: t('columns.entity'), dataIndex: 'entityId', key: 'entityId', ellipsis: true, render: (v: string | null) => v ?? '—' },
          { title: t('columns.summary'), key: 'summary', ellipsis: true, render: (_, log) => <Typography.Text type="secondary">{summary(log)}</Typography.Text> },
          { title: t('columns.ip'), dataIndex: 'ip', key: 'ip', width: 130 },
        ]}
      />
    </Card>
  );
}

/** One line about the entry: whose grants changed, the denied code, the failure reason, the route. */
function summary(log: TAuditLog): string {
  const d = log.details ?? {};
  const list = (v: unknown, sign: string) => (Array.isArray(v) && v.length ? `${sign}${v.join(', ')}` : undefined);
  const changed = (d.after ?? d.before) as { title?: unknown; name?: unknown } | undefined;
  const title = changed && typeof changed === 'object' && !Array.isArray(changed) ? (changed.title ?? changed.name) : undefined;
  const parts = [
    d.provider ?? d.role,
    title && typeof title === 'object' ? pickText(title as Record<string, string>, i18n.language) : title,
    list(d.granted, '+ '),
    list(d.revoked, '− '),
    d.permission,
    d.reason,
    d.method && d.route ? `${String(d.method)} ${String(d.route)}` : undefined,
  ].filter(Boolean);
  return parts.map(String).join(' · ');
}
