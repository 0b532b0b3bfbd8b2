import { Alert, Empty, Space, Spin, Table, Tag, Typography } from 'antd';
import type { TMenuItem, TMenuList } from '@tessera/core/contracts/menus';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.ts';
import { MenuIcon } from '../../../shared/components/MenuIcon.tsx';
import '../i18n.ts';

interface Row {
  key: string;
  item: TMenuItem;
  area: 'header' | 'sider';
  children?: Row[];
}

const toRows = (items: TMenuItem[], area: Row['area']): Row[] =>
  items.map((item) => ({ key: `${area}:${item.path}`, item, area, children: item.children?.length ? toRows(item.children, area) : undefined }));

/**
 * The fixed system menus (designer and administration areas): read-only, with the permission codes
 * each item needs — grant those codes on the authorization page and the item shows in the user's menu.
 */
export function SystemMenusPanel() {
  const { t } = useTranslation('businessMenus');
  const { t: tAll } = useTranslation();
  const query = useQuery({ queryKey: ['system-menus', 'definitions'], queryFn: () => api.get<TMenuList>('/system/menu/definitions') });
  if (query.isLoading) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (query.isError || !query.data) return <Empty description={t('loadFailed')} />;
  const rows = [...toRows(query.data.header, 'header'), ...toRows(query.data.sider, 'sider')];
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12}>
      <Alert type="info" showIcon message={t('system.help')} />
      <Table<Row>
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={rows}
        expandable={{ defaultExpandAllRows: true }}
        data-testid="system-menu-table"
        columns={[
          {
            title: t('system.columns.title'),
            key: 'title',
            render: (_, r) => (
              <Space size={8}>
                <MenuIcon name={r.item.icon} business />
                <span>{tAll(r.item.title)}</span>
              </Space>
            ),
          },
          { title: t('system.columns.path'), key: 'path', render: (_, r) => <Typography.Text code>{r.item.path}</Typography.Text> },
          {
            title: t('system.columns.area'),
            key: 'area',
            width: 120,
            render: (_, r) => <Tag color={r.area === 'header' ? 'purple' : 'blue'}>{t(`system.area.${r.area}`)}</Tag>,
          },
          {
            title: t('system.columns.auth'),
            key: 'auth',
            render: (_, r) =>
              r.item.auth?.length ? (
                r.item.auth.map((code) => (
                  <Tag key={code} color="gold">
                    {code}
                  </Tag>
                ))
              ) : (
                <Typography.Text type="secondary">{r.item.children?.length ? t('system.group') : t('system.everyone')}</Typography.Text>
              ),
          },
        ]}
      />
    </Space>
  );
}
