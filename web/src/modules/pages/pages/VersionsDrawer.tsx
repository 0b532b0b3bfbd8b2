import { HistoryOutlined, RollbackOutlined } from '@ant-design/icons';
import { Button, Drawer, Empty, List, Space, Spin, Tag, Typography } from 'antd';
import type { TDesignChanges, TPageDefinitionListItem, TPageVersionListItem, TPublishPlan } from '@tessera/core/contracts/pages';
import { P } from '@tessera/core/contracts/permissions';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { useAccessChecker } from '../../../shared/components/Auth.tsx';
import { pickText } from '../../../shared/components/LocalizedTextInput.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { usePageVersions, useRollbackPage } from '../api/page-definitions.ts';
import './page-list-texts.ts';

function ChangeList({ label, items, color }: { label: string; items: string[]; color: string }) {
  const { t } = useTranslation('pageList');
  if (items.length === 0) return null;
  return (
    <div>
      <Typography.Text type="secondary">{t('changes.label', { label })}</Typography.Text>
      {items.map((item) => (
        <Tag key={item} color={color} style={{ marginBottom: 4 }}>
          {item}
        </Tag>
      ))}
    </div>
  );
}

/** The diff summary of one version: design changes, then the table changes it applied. */
function VersionSummary({ version }: { version: TPageVersionListItem }) {
  const { t } = useTranslation('pageList');
  const d: TDesignChanges | undefined = version.designChanges;
  const parts: ReactNode[] = [];
  if (d) {
    parts.push(
      <ChangeList key="va" label={t('changes.viewsAdded')} items={d.viewsAdded} color="green" />,
      <ChangeList key="vr" label={t('changes.viewsRemoved')} items={d.viewsRemoved} color="red" />,
      <ChangeList key="ca" label={t('changes.controlsAdded')} items={d.controlsAdded} color="green" />,
      <ChangeList key="cr" label={t('changes.controlsRemoved')} items={d.controlsRemoved} color="red" />,
      <ChangeList key="cn" label={t('changes.controlsRenamed')} items={d.controlsRenamed.map((r) => `${r.from} → ${r.to}`)} color="blue" />,
      <ChangeList key="ct" label={t('changes.controlsRetyped')} items={d.controlsRetyped.map((r) => `${r.control}: ${r.from} → ${r.to}`)} color="orange" />,
      <ChangeList key="cc" label={t('changes.controlsChanged')} items={d.controlsChanged} color="default" />,
    );
    const b = d.buttons;
    if (b.added + b.removed + b.changed > 0) parts.push(<div key="b">{t('changes.buttons', b)}</div>);
    const l = d.linkages;
    if (l.added + l.removed + l.changed > 0) parts.push(<div key="l">{t('changes.linkages', l)}</div>);
  }
  const visible = parts.filter((p) => p !== null);
  const empty =
    d &&
    d.viewsAdded.length + d.viewsRemoved.length + d.controlsAdded.length + d.controlsRemoved.length + d.controlsRenamed.length + d.controlsRetyped.length + d.controlsChanged.length === 0 &&
    d.buttons.added + d.buttons.removed + d.buttons.changed + d.linkages.added + d.linkages.removed + d.linkages.changed === 0;
  return (
    <Space orientation="vertical" size={2} style={{ width: '100%' }} data-testid={`version-summary-${version.version}`}>
      {empty ? <Typography.Text type="secondary">{t('changes.none')}</Typography.Text> : visible}
      <Typography.Text type="secondary">
        {t('changes.schema', { count: version.changeSummary.length })}
        {version.hiddenColumns.length > 0 && ` · ${t('changes.hidden', { count: version.hiddenColumns.length })}`}
      </Typography.Text>
    </Space>
  );
}

/** Version history of a page with a diff summary per version and rollback to a published version. */
export function VersionsDrawer({ page, onClose }: { page: TPageDefinitionListItem | null; onClose: () => void }) {
  const { t, i18n } = useTranslation('pageList');
  const can = useAccessChecker();
  const versions = usePageVersions(page?.id ?? null);
  const rollback = useRollbackPage();
  const current = versions.data?.items[0]?.version;

  const run = async (version: number, confirmHideColumns: boolean) => {
    if (!page) return;
    try {
      const result = await rollback.mutateAsync({ id: page.id, version, input: { confirmHideColumns } });
      feedback.message?.success(t('rolledBack', { version: result.version.version }));
      void versions.refetch();
    } catch (err) {
      const body = err instanceof ApiError ? (err.body as { error?: { code?: string; message?: string; details?: TPublishPlan } } | undefined) : undefined;
      const plan = body?.error?.code === 'Pages.DataLoss' ? body.error.details : undefined;
      if (plan?.needsConfirmation && !confirmHideColumns) {
        feedback.modal?.confirm({
          title: t('rollbackBlocked'),
          width: 560,
          content: (
            <div>
              <p>{t('rollbackHideText')}</p>
              <ul>
                {plan.blockers.map((b, i) => (
                  <li key={i}>{b.message}</li>
                ))}
              </ul>
            </div>
          ),
          okText: t('rollbackHide'),
          cancelText: t('cancel'),
          onOk: () => run(version, true),
        });
        return;
      }
      feedback.modal?.error({ title: t('rollbackBlocked'), content: body?.error?.message ?? (err as Error).message, okText: t('ok') });
    }
  };

  const confirmRollback = (version: number) =>
    feedback.modal?.confirm({
      title: t('confirmRollback', { version }),
      content: t('confirmRollbackText', { version }),
      okText: t('rollback'),
      cancelText: t('cancel'),
      onOk: () => run(version, false),
    });

  return (
    <Drawer
      open={Boolean(page)}
      onClose={onClose}
      size={720}
      title={
        <Space>
          <HistoryOutlined />
          {page ? t('versionsTitle', { name: pickText(page.name, i18n.language) || page.code }) : ''}
        </Space>
      }
    >
      <Spin spinning={versions.isFetching}>
        {versions.data && versions.data.items.length === 0 ? (
          <Empty description={t('noVersions')} />
        ) : (
          <List<TPageVersionListItem>
            dataSource={versions.data?.items ?? []}
            rowKey="version"
            renderItem={(v) => (
              <List.Item
                data-testid={`version-${v.version}`}
                actions={
                  can(P.PagesPublish) && v.version !== current
                    ? [
                        <Button key="rollback" size="small" icon={<RollbackOutlined />} loading={rollback.isPending && rollback.variables?.version === v.version} onClick={() => confirmRollback(v.version)}>
                          {t('rollback')}
                        </Button>,
                      ]
                    : []
                }
              >
                <List.Item.Meta
                  title={
                    <Space wrap>
                      <Typography.Text strong>{t('versionNo', { version: v.version })}</Typography.Text>
                      {v.version === current && <Tag color="green">{t('current')}</Tag>}
                      {v.rolledBackFrom !== null && <Tag color="purple">{t('rolledBackFrom', { version: v.rolledBackFrom })}</Tag>}
                      <Typography.Text type="secondary">
                        {t('publishedBy', { user: v.publishedByName ?? t('unknownUser'), time: dayjs(v.publishedTime).format('YYYY-MM-DD HH:mm:ss') })}
                      </Typography.Text>
                    </Space>
                  }
                  description={<VersionSummary version={v} />}
                />
              </List.Item>
            )}
          />
        )}
      </Spin>
    </Drawer>
  );
}
