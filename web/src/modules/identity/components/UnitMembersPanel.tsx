import { CrownOutlined, DeleteOutlined, SearchOutlined, UserAddOutlined } from '@ant-design/icons';
import { personDisplayName } from '@tessera/core/helpers/person-name';
import { Button, Input, Popconfirm, Space, Switch, Table, Tag, Typography } from 'antd';
import type { TOrganizationUnitMember, TOrganizationUnitNode } from '@tessera/core/contracts/identity';
import { P } from '@tessera/core/contracts/permissions';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../../shared/components/Auth.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useAddUnitMembers, useRemoveUnitMember, useSetUnitLeader, useUnitMembers } from '../api/organization-units.ts';
import { AddMembersModal } from './AddMembersModal.tsx';
import '../i18n.ts';

/** The members of one unit: search, include sub-units, add, remove, set the leader. */
export function UnitMembersPanel({ unit }: { unit: TOrganizationUnitNode }) {
  const { t, i18n } = useTranslation('identity');
  const canManage = useAccess(P.OrganizationUnitsManageMembers);
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState('');
  const [includeChildren, setIncludeChildren] = useState(false);
  const [paging, setPaging] = useState({ current: 1, pageSize: 20 });
  const [sorting, setSorting] = useState<string | undefined>();
  const [adding, setAdding] = useState(false);
  const members = useUnitMembers(unit.id, {
    SkipCount: (paging.current - 1) * paging.pageSize,
    MaxResultCount: paging.pageSize,
    Sorting: sorting,
    Filter: filter || undefined,
    IncludeChildren: includeChildren || undefined,
  });
  const add = useAddUnitMembers();
  const remove = useRemoveUnitMember();
  const setLeader = useSetUnitLeader();

  const applySearch = () => {
    setFilter(search.trim());
    setPaging((p) => ({ ...p, current: 1 }));
  };

  return (
    <>
      <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={t('members.search')}
            style={{ width: 280 }}
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              if (!e.target.value) {
                setFilter('');
                setPaging((p) => ({ ...p, current: 1 }));
              }
            }}
            onPressEnter={applySearch}
          />
          <Button icon={<SearchOutlined />} onClick={applySearch}>
            {t('search')}
          </Button>
          <Space size={6}>
            <Switch
              size="small"
              checked={includeChildren}
              onChange={(v) => {
                setIncludeChildren(v);
                setPaging((p) => ({ ...p, current: 1 }));
              }}
              aria-label={t('members.includeChildren')}
            />
            <Typography.Text>{t('members.includeChildren')}</Typography.Text>
          </Space>
        </Space>
        {canManage && (
          <Button type="primary" icon={<UserAddOutlined />} onClick={() => setAdding(true)}>
            {t('members.add')}
          </Button>
        )}
      </Space>
      <Table<TOrganizationUnitMember>
        size="small"
        rowKey="id"
        loading={members.isFetching}
        dataSource={members.data?.items ?? []}
        locale={{ emptyText: t('members.empty') }}
        pagination={{
          ...paging,
          total: members.data?.totalCount ?? 0,
          showSizeChanger: true,
          showTotal: (n) => t('total', { count: n }),
        }}
        onChange={(p, _f, sorter) => {
          setPaging({ current: p.current ?? 1, pageSize: p.pageSize ?? 20 });
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          setSorting(s?.order ? `${String(s.field)} ${s.order === 'descend' ? 'desc' : 'asc'}` : undefined);
        }}
        columns={[
          {
            title: t('users.columns.userName'),
            dataIndex: 'userName',
            sorter: true,
            render: (v: string, m) => (
              <Space size={6}>
                <span>{v}</span>
                {m.isLeader && (
                  <Tag color="gold" icon={<CrownOutlined />}>
                    {t('members.leader')}
                  </Tag>
                )}
              </Space>
            ),
          },
          { title: t('users.columns.name'), dataIndex: 'name', sorter: true, render: (_: string, m) => personDisplayName(m, i18n.language) },
          { title: t('users.columns.email'), dataIndex: 'email', sorter: true, ellipsis: true },
          { title: t('users.columns.phoneNumber'), dataIndex: 'phoneNumber' },
          {
            title: t('users.columns.status'),
            dataIndex: 'isActive',
            width: 90,
            render: (v: boolean) => (v ? <Tag color="green">{t('users.active')}</Tag> : <Tag>{t('users.inactive')}</Tag>),
          },
          // With sub-units included a row may belong to a unit below: manage members there.
          ...(canManage && !includeChildren
            ? [
                {
                  title: t('actions'),
                  key: 'actions',
                  width: 190,
                  render: (_: unknown, m: TOrganizationUnitMember) => (
                    <Space size={0}>
                      {m.isLeader ? (
                        <Button
                          type="link"
                          size="small"
                          onClick={() => setLeader.mutate({ id: unit.id, userId: null }, { onSuccess: () => feedback.message?.success(t('members.leaderCleared')) })}
                        >
                          {t('members.clearLeader')}
                        </Button>
                      ) : (
                        <Button
                          type="link"
                          size="small"
                          icon={<CrownOutlined />}
                          onClick={() => setLeader.mutate({ id: unit.id, userId: m.id }, { onSuccess: () => feedback.message?.success(t('members.leaderSet')) })}
                        >
                          {t('members.setLeader')}
                        </Button>
                      )}
                      <Popconfirm
                        title={t('members.removeConfirm', { user: personDisplayName(m, i18n.language) })}
                        onConfirm={() => remove.mutateAsync({ id: unit.id, userId: m.id }).then(() => feedback.message?.success(t('members.removed')))}
                        okText={t('common:ok')}
                        cancelText={t('common:cancel')}
                      >
                        <Button type="link" size="small" danger icon={<DeleteOutlined />}>
                          {t('members.remove')}
                        </Button>
                      </Popconfirm>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      <AddMembersModal
        open={adding}
        title={t('members.addTitle', { unit: unit.displayName })}
        placeholder={t('members.addPlaceholder')}
        onClose={() => setAdding(false)}
        onAdd={async (userIds) => {
          const res = await add.mutateAsync({ id: unit.id, userIds });
          feedback.message?.success(t('members.added', { count: res.addedCount }));
        }}
      />
    </>
  );
}
