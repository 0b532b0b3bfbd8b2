import { DeleteOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Flex, List, Popconfirm, Tag, Tooltip, Typography, theme, type ButtonProps } from 'antd';
import type { TDataSourceMethod } from '@tessera/core/contracts/data-sources';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useDataSourceMethods, useDeleteDataSourceMethod } from '../api/data-sources.ts';
import { errorText, serverError } from '../api/server-error.ts';
import '../i18n.ts';

interface SavedQueriesProps {
  sourceId: string;
  /** The query open in the workbench, marked in the list. */
  openId: string | null;
  onOpen(method: TDataSourceMethod): void;
  onDeleted(method: TDataSourceMethod): void;
  height: number;
}

/** The source's saved queries (保存的查询): name, code and cache; a click opens one, each can be deleted after a confirmation. */
export function SavedQueries({ sourceId, openId, onOpen, onDeleted, height }: SavedQueriesProps) {
  const { t } = useTranslation('dataSources');
  const { token } = theme.useToken();
  const methods = useDataSourceMethods(sourceId);
  const remove = useDeleteDataSourceMethod();
  const items = methods.data?.items ?? [];

  const confirmDelete = async (m: TDataSourceMethod) => {
    try {
      await remove.mutateAsync({ sourceId, methodId: m.id });
      feedback.message?.success(t('methods.deleted'));
      onDeleted(m);
    } catch (err) {
      feedback.message?.error(errorText(err));
    }
  };

  return (
    <Flex vertical gap={8} style={{ minWidth: 0 }} data-testid="data-source-methods">
      <Flex gap={8} align="center">
        <Typography.Text type="secondary" style={{ flex: 1, fontSize: 12 }}>
          {methods.data ? t('list.total', { count: items.length }) : null}
        </Typography.Text>
        <Button size="small" type="text" icon={<ReloadOutlined />} aria-label={t('list.refresh')} loading={methods.isFetching} onClick={() => void methods.refetch()} />
      </Flex>
      {methods.error && <Alert type="error" showIcon title={t('methods.loadFailed')} description={serverError(methods.error).message} />}
      <div style={{ maxHeight: height, overflowY: 'auto' }}>
        <List<TDataSourceMethod>
          size="small"
          loading={methods.isLoading}
          dataSource={items}
          rowKey="id"
          locale={{
            emptyText: (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span data-testid="data-source-methods-empty">{t('methods.empty')}</span>}>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('methods.emptyHint')}
                </Typography.Text>
              </Empty>
            ),
          }}
          renderItem={(m) => (
            <List.Item
              data-testid={`data-source-method-${m.code}`}
              data-open={m.id === openId}
              onClick={() => onOpen(m)}
              style={{ cursor: 'pointer', paddingInline: 8, background: m.id === openId ? token.controlItemBgActive : undefined, borderRadius: token.borderRadiusSM }}
              actions={[
                <Popconfirm
                  key="delete"
                  title={t('methods.confirmDelete', { name: m.name })}
                  okText={t('methods.delete')}
                  cancelText={t('methods.cancel')}
                  okButtonProps={{ danger: true, loading: remove.isPending, 'data-testid': 'data-source-method-delete-ok' } as ButtonProps}
                  onConfirm={() => confirmDelete(m)}
                  onPopupClick={(e) => e.stopPropagation()}
                >
                  <Button
                    size="small"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`${t('methods.delete')} ${m.name}`}
                    data-testid={`data-source-method-delete-${m.code}`}
                    onClick={(e) => e.stopPropagation()}
                  />
                </Popconfirm>,
              ]}
            >
              <Tooltip title={m.description || t('methods.openHint')} mouseEnterDelay={0.8} placement="right">
                <Flex vertical style={{ minWidth: 0 }}>
                  <Typography.Text ellipsis strong={m.id === openId}>
                    {m.name}
                  </Typography.Text>
                  <Flex gap={4} align="center" wrap>
                    <Typography.Text type="secondary" style={{ fontFamily: token.fontFamilyCode, fontSize: 12 }}>
                      {m.code}
                    </Typography.Text>
                    {m.cacheSeconds > 0 && (
                      <Tag color="cyan" style={{ marginInlineEnd: 0, fontSize: 11, lineHeight: '16px' }} data-testid={`data-source-method-cache-${m.code}`}>
                        {t('methods.cache', { count: m.cacheSeconds })}
                      </Tag>
                    )}
                  </Flex>
                </Flex>
              </Tooltip>
            </List.Item>
          )}
        />
      </div>
    </Flex>
  );
}
