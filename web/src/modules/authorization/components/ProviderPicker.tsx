import { ApartmentOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { personDisplayName } from '@tessera/core/helpers/person-name';
import { Empty, Input, List, Pagination, Segmented, Spin, Tag, Tree, Typography } from 'antd';
import type { TProviderName } from '@tessera/core/contracts/authorization';
import type { TOrganizationUnitNode } from '@tessera/core/contracts/identity';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRoleChoices, useUnitTree, useUserChoices } from '../api/identity-lists.ts';
import '../i18n.ts';

export interface ProviderSelection {
  providerName: TProviderName;
  providerKey: string;
  title: string;
}

const USER_PAGE = 20;
interface UnitNode {
  key: string;
  title: string;
  children: UnitNode[];
}

/** spec §3 selection types 4 role, 3 user, 1 organisation unit: whom to grant to. */
export function ProviderPicker({ value, onSelect }: { value: ProviderSelection | null; onSelect(next: ProviderSelection): void }) {
  const { t, i18n } = useTranslation('authorization');
  const [kind, setKind] = useState<TProviderName>(value?.providerName ?? 'R');
  const [search, setSearch] = useState('');
  const filter = useDeferredValue(search.trim());
  const [userPage, setUserPage] = useState(1);
  const roles = useRoleChoices(kind === 'R' ? filter : '');
  const users = useUserChoices(kind === 'U' ? filter : '', (userPage - 1) * USER_PAGE, USER_PAGE);
  const units = useUnitTree();

  const unitTree = useMemo(() => {
    const needle = filter.toLowerCase();
    const toNode = (u: TOrganizationUnitNode): UnitNode | null => {
      const children = u.children.map(toNode).filter((c): c is UnitNode => !!c);
      if (needle && !u.displayName.toLowerCase().includes(needle) && children.length === 0) return null;
      return { key: u.id, title: u.displayName, children };
    };
    return (units.data ?? []).map(toNode).filter((n): n is UnitNode => !!n);
  }, [units.data, filter]);

  const selected = (key: string) => value?.providerKey === key;
  const itemStyle = (key: string) => ({
    cursor: 'pointer',
    paddingInline: 8,
    borderRadius: 6,
    background: selected(key) ? 'rgba(81, 214, 169, 0.16)' : undefined,
  });

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
      <Segmented<TProviderName>
        block
        value={kind}
        onChange={(k) => {
          setKind(k);
          setSearch('');
        }}
        options={[
          { value: 'R', label: t('picker.roles'), icon: <TeamOutlined /> },
          { value: 'U', label: t('picker.users'), icon: <UserOutlined /> },
          { value: 'OU', label: t('picker.units'), icon: <ApartmentOutlined /> },
        ]}
      />
      <Input.Search
        allowClear
        placeholder={t(`picker.search.${kind}`)}
        value={search}
        onChange={(e) => {
          setSearch(e.target.value);
          setUserPage(1);
        }}
      />
      {kind === 'R' && (
        <Spin spinning={roles.isFetching}>
          <List
            size="small"
            dataSource={roles.data?.items ?? []}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={roles.isError ? t('picker.loadFailed') : t('picker.none')} /> }}
            renderItem={(role) => (
              <List.Item
                role="button"
                tabIndex={0}
                aria-pressed={selected(role.id)}
                style={itemStyle(role.id)}
                onClick={() => onSelect({ providerName: 'R', providerKey: role.id, title: role.name })}
                onKeyDown={(e) => e.key === 'Enter' && onSelect({ providerName: 'R', providerKey: role.id, title: role.name })}
              >
                <span>{role.name}</span>
                {role.isStatic && <Tag>{t('picker.static')}</Tag>}
              </List.Item>
            )}
          />
        </Spin>
      )}
      {kind === 'U' && (
        <Spin spinning={users.isFetching}>
          <List
            size="small"
            dataSource={users.data?.items ?? []}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={users.isError ? t('picker.loadFailed') : t('picker.none')} /> }}
            renderItem={(user) => {
              const name = personDisplayName({ name: user.name, surname: user.surname }, i18n.language);
              const title = name ? `${name} (${user.userName})` : user.userName;
              return (
                <List.Item
                  role="button"
                  tabIndex={0}
                  aria-pressed={selected(user.id)}
                  style={itemStyle(user.id)}
                  onClick={() => onSelect({ providerName: 'U', providerKey: user.id, title })}
                  onKeyDown={(e) => e.key === 'Enter' && onSelect({ providerName: 'U', providerKey: user.id, title })}
                >
                  <span>{name || user.userName}</span>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {user.userName}
                  </Typography.Text>
                </List.Item>
              );
            }}
          />
          {(users.data?.totalCount ?? 0) > USER_PAGE && (
            <Pagination simple size="small" style={{ marginTop: 8 }} current={userPage} pageSize={USER_PAGE} total={users.data?.totalCount} onChange={setUserPage} />
          )}
        </Spin>
      )}
      {kind === 'OU' && (
        <Spin spinning={units.isFetching}>
          {unitTree.length ? (
            <Tree
              blockNode
              defaultExpandAll
              key={filter}
              treeData={unitTree}
              selectedKeys={value?.providerName === 'OU' ? [value.providerKey] : []}
              onSelect={(_, info) => {
                const node = info.node as unknown as UnitNode;
                onSelect({ providerName: 'OU', providerKey: node.key, title: node.title });
              }}
            />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={units.isError ? t('picker.loadFailed') : t('picker.none')} />
          )}
        </Spin>
      )}
    </div>
  );
}
