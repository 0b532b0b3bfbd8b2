import { DeleteOutlined } from '@ant-design/icons';
import { App, Button, Card, Input, Select, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLogs, type LogEntry } from '../../shared/logs/log-store.ts';

const TYPE_COLORS: Record<string, string> = { error: 'red', warning: 'orange', info: 'blue' };

/** spec §2 /log (system-log): the front-end log — message, type, time, meta — with filters and clear. */
export default function LogPage() {
  const { t } = useTranslation('shell');
  const { modal } = App.useApp();
  const entries = useLogs((s) => s.entries);
  const clear = useLogs((s) => s.clear);
  const [type, setType] = useState<string | undefined>();
  const [filter, setFilter] = useState('');
  const types = useMemo(() => [...new Set(['error', 'warning', 'info', ...entries.map((e) => e.type)])], [entries]);
  const needle = filter.trim().toLowerCase();
  const shown = entries.filter(
    (e) => (!type || e.type === type) && (!needle || e.message.toLowerCase().includes(needle) || JSON.stringify(e.meta ?? {}).toLowerCase().includes(needle)),
  );
  const typeLabel = (value: string) => t(`log.types.${value}`, { defaultValue: value });

  return (
    <Card
      variant="borderless"
      title={t('log.title')}
      extra={
        <Button
          danger
          icon={<DeleteOutlined />}
          disabled={entries.length === 0}
          onClick={() => modal.confirm({ title: t('log.clearConfirm'), onOk: clear, okButtonProps: { danger: true } })}
        >
          {t('log.clear')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('log.description')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          allowClear
          placeholder={t('log.allTypes')}
          aria-label={t('log.type')}
          style={{ width: 160 }}
          value={type}
          onChange={setType}
          options={types.map((value) => ({ value, label: typeLabel(value) }))}
        />
        <Input allowClear placeholder={t('log.filter')} aria-label={t('log.filter')} value={filter} onChange={(e) => setFilter(e.target.value)} style={{ width: 260 }} />
      </Space>
      <Table<LogEntry>
        rowKey="id"
        size="middle"
        dataSource={shown}
        locale={{ emptyText: t('log.empty') }}
        pagination={{ pageSize: 20, showSizeChanger: true, showTotal: (count) => t('log.total', { count }) }}
        expandable={{
          rowExpandable: (e) => Boolean(e.meta && Object.keys(e.meta).length),
          expandedRowRender: (e) => <pre className="log-meta">{JSON.stringify(e.meta, null, 2)}</pre>,
        }}
        columns={[
          { title: t('log.message'), dataIndex: 'message', ellipsis: true },
          {
            title: t('log.type'),
            dataIndex: 'type',
            width: 110,
            render: (value: string) => <Tag color={TYPE_COLORS[value] ?? 'default'}>{typeLabel(value)}</Tag>,
          },
          {
            title: t('log.time'),
            dataIndex: 'time',
            width: 190,
            sorter: (a, b) => a.time.localeCompare(b.time),
            defaultSortOrder: 'descend',
            render: (value: string) => dayjs(value).format('YYYY-MM-DD HH:mm:ss'),
          },
          {
            title: t('log.meta'),
            dataIndex: 'meta',
            ellipsis: true,
            render: (meta: LogEntry['meta']) => {
              const url = meta?.url as string | undefined;
              const status = meta?.status as number | undefined;
              return <Typography.Text type="secondary">{[status, url].filter((x) => x !== undefined).join(' ') || (meta ? JSON.stringify(meta) : '')}</Typography.Text>;
            },
          },
        ]}
      />
    </Card>
  );
}
