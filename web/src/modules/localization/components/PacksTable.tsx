import { DeleteOutlined, DownloadOutlined, EditOutlined, FileExcelOutlined, PlusOutlined, TranslationOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Dropdown, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TLanguagePack } from '@tessera/core/contracts/localization';
import { P } from '@tessera/core/contracts/permissions';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { Auth, useAccess } from '../../../shared/components/Auth.tsx';
import { downloadPack, useDeletePack, useLanguagePacks, useUpdatePack } from '../api/localization.ts';
import { switchLanguage } from '../sync.ts';
import { ImportPackModal } from './ImportPackModal.tsx';
import { PackFormModal } from './PackFormModal.tsx';

/** The language packs: add, edit, enable, make default, delete, export, import, translate, use. */
export function PacksTable({ onTranslate }: { onTranslate(culture: string): void }) {
  const { t, i18n } = useTranslation('localization');
  const { message, modal } = App.useApp();
  const packs = useLanguagePacks();
  const update = useUpdatePack();
  const remove = useDeletePack();
  const canManage = useAccess(P.LocalizationManage);
  const [editing, setEditing] = useState<TLanguagePack | null | undefined>(undefined);
  const [importing, setImporting] = useState<TLanguagePack | null>(null);

  const toggle = async (pack: TLanguagePack, isEnabled: boolean) => {
    try {
      await update.mutateAsync({ id: pack.id, input: { culture: pack.culture, title: pack.title, isEnabled, concurrencyStamp: pack.concurrencyStamp } });
    } catch (err) {
      message.error(err instanceof ApiError ? err.message : String(err));
    }
  };

  const confirmDelete = (pack: TLanguagePack) =>
    modal.confirm({
      title: t('packs.confirmDelete'),
      content: t('packs.deleteDetail', { title: pack.title, count: pack.textCount }),
      okButtonProps: { danger: true },
      onOk: async () => {
        await remove.mutateAsync(pack.id);
        message.success(t('packs.deleted'));
      },
    });

  const download = (pack: TLanguagePack, format: 'json' | 'xlsx') => downloadPack(pack.culture, format).catch((err: Error) => message.error(err.message));

  const use = async (pack: TLanguagePack) => {
    await switchLanguage(pack.culture);
    message.success(t('packs.switched', { title: pack.title }));
  };

  const columns: ColumnsType<TLanguagePack> = [
    {
      title: t('packs.title'),
      key: 'title',
      render: (_, p) => (
        <Space>
          {/* The region code, not a flag emoji: those show as letters or boxes on many systems. */}
          <span
            aria-hidden
            style={{ display: 'inline-block', width: 26, textAlign: 'center', fontSize: 11, lineHeight: '16px', fontFamily: 'ui-monospace, Menlo, Consolas, monospace', border: p.flag ? '1px solid rgba(128,128,128,0.45)' : 'none', borderRadius: 3, opacity: 0.85 }}
          >
            {p.flag ?? ''}
          </span>
          <span lang={p.culture}>{p.title}</span>
          {p.isDefault && <Tag color="green">{t('packs.isDefault')}</Tag>}
          {p.isBuiltIn && <Tag>{t('packs.builtIn')}</Tag>}
          {i18n.language === p.culture && <Tag color="blue">{t('packs.inUse')}</Tag>}
        </Space>
      ),
    },
    { title: t('packs.culture'), dataIndex: 'culture', key: 'culture', render: (c: string) => <Typography.Text code>{c}</Typography.Text> },
    {
      title: t('packs.enabled'),
      key: 'isEnabled',
      width: 90,
      render: (_, p) => (
        <Switch size="small" checked={p.isEnabled} disabled={!canManage || p.isDefault} loading={update.isPending && update.variables?.id === p.id} onChange={(v) => void toggle(p, v)} aria-label={`${t('packs.enabled')} ${p.culture}`} />
      ),
    },
    { title: t('packs.texts'), dataIndex: 'textCount', key: 'textCount', width: 110, align: 'right' },
    { title: t('packs.order'), dataIndex: 'order', key: 'order', width: 80, align: 'right' },
    {
      title: t('packs.actions'),
      key: 'actions',
      width: 330,
      render: (_, p) => (
        <Space size={4} wrap>
          <Button size="small" icon={<TranslationOutlined />} onClick={() => onTranslate(p.culture)}>
            {t('packs.translate')}
          </Button>
          {p.isEnabled && i18n.language !== p.culture && (
            <Button size="small" onClick={() => void use(p)}>
              {t('packs.use')}
            </Button>
          )}
          <Dropdown
            menu={{
              items: [
                { key: 'json', icon: <DownloadOutlined />, label: t('packs.exportJson'), onClick: () => void download(p, 'json') },
                { key: 'xlsx', icon: <FileExcelOutlined />, label: t('packs.exportExcel'), onClick: () => void download(p, 'xlsx') },
                ...(canManage ? [{ key: 'import', icon: <UploadOutlined />, label: t('packs.import'), onClick: () => setImporting(p) }] : []),
              ],
            }}
          >
            <Button size="small" icon={<DownloadOutlined />} aria-label={`${t('packs.exportJson')} / ${t('packs.import')}`} />
          </Dropdown>
          <Auth code={P.LocalizationManage}>
            <Tooltip title={t('packs.edit')}>
              <Button size="small" icon={<EditOutlined />} aria-label={`${t('packs.edit')} ${p.culture}`} onClick={() => setEditing(p)} />
            </Tooltip>
            {!p.isBuiltIn && !p.isDefault && (
              <Tooltip title={t('packs.delete')}>
                <Button size="small" danger icon={<DeleteOutlined />} aria-label={`${t('packs.delete')} ${p.culture}`} onClick={() => confirmDelete(p)} />
              </Tooltip>
            )}
          </Auth>
        </Space>
      ),
    },
  ];

  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Auth code={P.LocalizationManage}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
            {t('packs.create')}
          </Button>
        </Auth>
      </Space>
      <Table<TLanguagePack> size="middle" rowKey="id" loading={packs.isFetching} columns={columns} dataSource={packs.data?.items ?? []} pagination={false} scroll={{ x: 960 }} data-testid="language-packs" />
      <PackFormModal open={editing !== undefined} pack={editing ?? null} onClose={() => setEditing(undefined)} />
      <ImportPackModal pack={importing} onClose={() => setImporting(null)} />
    </>
  );
}
