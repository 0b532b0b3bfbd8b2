import { DiffOutlined, RollbackOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Space, Table, Tag, Typography, theme, type ButtonProps } from 'antd';
import type { TProcedure, TProcedureVersion } from '@tessera/core/contracts/data-factory';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { errorText } from '../../data-sources/api/server-error.ts';
import { useProcedureDiff, useProcedureVersions, useRollbackProcedure } from '../api/data-factory.ts';
import '../i18n.ts';

/** The versions of a procedure: compare one with the current version (a line diff), or roll back to it (a new version, after confirming). */
export function VersionsPanel({ procedure, onRolledBack }: { procedure: TProcedure; onRolledBack(p: TProcedure): void }) {
  const { t } = useTranslation('dataFactory');
  const { token } = theme.useToken();
  const versions = useProcedureVersions(procedure.id);
  const [pair, setPair] = useState<{ from: number; to: number } | null>(null);
  const diff = useProcedureDiff(procedure.id, pair);
  const rollback = useRollbackProcedure();

  const confirmRollback = (v: TProcedureVersion) =>
    feedback.modal?.confirm({
      title: t('versions.confirmRollback', { version: v.version }),
      content: t('versions.confirmRollbackText', { version: v.version }),
      okText: t('versions.rollback'),
      cancelText: t('list.cancel'),
      okButtonProps: { 'data-testid': 'factory-rollback-ok' } as ButtonProps,
      onOk: async () => {
        try {
          const restored = await rollback.mutateAsync({ id: procedure.id, version: v.version, concurrencyStamp: procedure.concurrencyStamp });
          feedback.message?.success(t('versions.rolledBack', { version: restored.version }));
          setPair(null);
          onRolledBack(restored);
        } catch (err) {
          feedback.message?.error(errorText(err));
        }
      },
    });

  const colour = { added: token.colorSuccessBg, removed: token.colorErrorBg, same: undefined };
  return (
    <Space orientation="vertical" style={{ width: "100%" }} size={12}>
      <Table<TProcedureVersion>
        size="small"
        rowKey="version"
        loading={versions.isFetching}
        dataSource={versions.data?.items ?? []}
        pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
        data-testid="factory-versions"
        columns={[
          {
            title: t('versions.version'),
            key: 'version',
            width: 150,
            render: (_, v) => (
              <Space size={4}>
                <span>v{v.version}</span>
                {v.version === procedure.version && <Tag color="blue">{t('versions.current')}</Tag>}
                {v.restoredFrom !== null && <Tag>{t('versions.restoredFrom', { version: v.restoredFrom })}</Tag>}
              </Space>
            ),
          },
          { title: t('versions.author'), key: 'author', dataIndex: 'creatorName', width: 120 },
          { title: t('versions.time'), key: 'time', width: 170, render: (_, v) => new Date(v.creationTime).toLocaleString() },
          {
            key: 'actions',
            render: (_, v) =>
              v.version === procedure.version ? null : (
                <Space size={0}>
                  <Button type="link" size="small" icon={<DiffOutlined />} onClick={() => setPair({ from: v.version, to: procedure.version })} data-testid={`factory-compare-${v.version}`}>
                    {t('versions.compare')}
                  </Button>
                  <Button type="link" size="small" icon={<RollbackOutlined />} loading={rollback.isPending} onClick={() => confirmRollback(v)} data-testid={`factory-rollback-${v.version}`}>
                    {t('versions.rollback')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      {pair && diff.data && (
        <Card
          size="small"
          title={t('versions.diffTitle', { from: diff.data.from, to: diff.data.to })}
          extra={<Typography.Text type="secondary">{t('versions.diffSummary', { added: diff.data.added, removed: diff.data.removed })}</Typography.Text>}
          data-testid="factory-diff"
        >
          {diff.data.added + diff.data.removed === 0 ? (
            <Empty description={t('versions.same')} />
          ) : (
            <pre style={{ margin: 0, fontSize: 12, overflowX: 'auto', fontFamily: token.fontFamilyCode }}>
              {diff.data.lines.map((l, i) => (
                <div key={i} style={{ background: colour[l.kind] }} data-kind={l.kind}>
                  <span style={{ color: token.colorTextTertiary, display: 'inline-block', width: 64, userSelect: 'none' }}>
                    {String(l.oldNumber ?? '').padStart(3)} {String(l.newNumber ?? '').padStart(3)}
                  </span>
                  {l.kind === 'added' ? '+ ' : l.kind === 'removed' ? '- ' : '  '}
                  {l.text}
                </div>
              ))}
            </pre>
          )}
        </Card>
      )}
    </Space>
  );
}
