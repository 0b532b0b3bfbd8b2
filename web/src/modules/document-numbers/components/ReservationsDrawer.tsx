import { SearchOutlined } from '@ant-design/icons';
import { Button, Drawer, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TDocumentNumberRule, TReservation } from '@tessera/core/contracts/document-numbers';
import { P } from '@tessera/core/contracts/permissions';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../../shared/components/Auth.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useReservations, useVoidNumber } from '../api/document-numbers.ts';
import '../i18n.ts';

const STATUS_COLORS = { reserved: 'gold', used: 'green', void: 'default' } as const;
const time = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : '');

/** Numbers fetched for new records (docNoOccasion 1) and what became of them: reserved, used, void. */
export function ReservationsDrawer({ rule, onClose }: { rule: TDocumentNumberRule | null; onClose(): void }) {
  const { t } = useTranslation('documentNumbers');
  const [status, setStatus] = useState<TReservation['status'] | undefined>();
  const [text, setText] = useState('');
  const [paging, setPaging] = useState({ current: 1, pageSize: 20 });
  const list = useReservations(rule?.id ?? null, { Status: status, Filter: text.trim() || undefined, SkipCount: (paging.current - 1) * paging.pageSize, MaxResultCount: paging.pageSize });
  const voidNumber = useVoidNumber();
  const canVoid = useAccess(P.DocumentNumbersUpdate);

  const confirmVoid = (r: TReservation) =>
    feedback.modal?.confirm({
      title: t('common:confirmOperation'),
      content: t('reservations.voidConfirm', { docNo: r.docNo }),
      okText: t('common:ok'),
      cancelText: t('common:cancel'),
      onOk: () => voidNumber.mutateAsync({ id: rule!.id, docNo: r.docNo }).then(() => feedback.message?.success(t('reservations.voided'))),
    });

  const columns: ColumnsType<TReservation> = [
    { title: t('reservations.docNo'), dataIndex: 'docNo', key: 'docNo', render: (d: string) => <Typography.Text code>{d}</Typography.Text> },
    { title: t('reservations.status'), dataIndex: 'status', key: 'status', width: 100, render: (s: TReservation['status']) => <Tag color={STATUS_COLORS[s]}>{t(`reservations.${s}`)}</Tag> },
    { title: t('reservations.reservedAt'), key: 'reservedAt', width: 170, render: (_, r) => time(r.reservedAt) },
    { title: t('reservations.reservedBy'), dataIndex: 'reservedBy', key: 'reservedBy', width: 120 },
    { title: t('reservations.closedAt'), key: 'closedAt', width: 170, render: (_, r) => time(r.usedAt ?? r.voidedAt) },
    {
      key: 'actions',
      width: 80,
      render: (_, r) =>
        r.status === 'reserved' && canVoid ? (
          <Button size="small" onClick={() => confirmVoid(r)}>
            {t('reservations.voidAction')}
          </Button>
        ) : null,
    },
  ];

  return (
    <Drawer open={!!rule} width={860} title={t('reservations.title', { code: rule?.code ?? '' })} onClose={onClose} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('reservations.hint')}</Typography.Paragraph>
      <Space style={{ marginBottom: 12 }} wrap>
        <Input
          allowClear
          prefix={<SearchOutlined />}
          style={{ width: 240 }}
          placeholder={t('reservations.search')}
          aria-label={t('reservations.search')}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setPaging((p) => ({ ...p, current: 1 }));
          }}
        />
        <Select
          allowClear
          style={{ width: 140 }}
          placeholder={t('reservations.allStatuses')}
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPaging((p) => ({ ...p, current: 1 }));
          }}
          options={(['reserved', 'used', 'void'] as const).map((s) => ({ value: s, label: t(`reservations.${s}`) }))}
        />
      </Space>
      <Table<TReservation>
        size="small"
        rowKey="id"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.items ?? []}
        locale={{ emptyText: t('reservations.empty') }}
        data-testid="reservations"
        pagination={{ ...paging, total: list.data?.totalCount ?? 0, showSizeChanger: true }}
        onChange={(p) => setPaging({ current: p.current ?? 1, pageSize: p.pageSize ?? 20 })}
      />
    </Drawer>
  );
}
