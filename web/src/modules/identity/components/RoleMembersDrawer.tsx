import { DeleteOutlined, SearchOutlined, UserAddOutlined } from '@ant-design/icons';
import { personDisplayName } from '@tessera/core/helpers/person-name';
import { Button, Drawer, Input, Popconfirm, Table, Tag } from 'antd';
import type { TIdentityRole, TRoleMember } from '@tessera/core/contracts/identity';
import { P } from '@tessera/core/contracts/permissions';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { useAccess } from '../../../shared/components/Auth.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useAddRoleMembers, useRemoveRoleMember, useRoleMembers } from '../api/roles.ts';
import { AddMembersModal } from './AddMembersModal.tsx';
import '../i18n.ts';

/** The users in a role: search, page, add and remove. */
export function RoleMembersDrawer({ role, onClose }: { role: TIdentityRole | null; onClose(): void }) {
  const { t, i18n } = useTranslation('identity');
  const canUpdate = useAccess(P.RolesUpdate);
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState('');
  const [paging, setPaging] = useState({ current: 1, pageSize: 20 });
  const [sorting, setSorting] = useState<string | undefined>();
  const [adding, setAdding] = useState(false);
  const members = useRoleMembers(role?.id ?? null, {
    SkipCount: (paging.current - 1) * paging.pageSize,
    MaxResultCount: paging.pageSize,
    Filter: filter || undefined,
    Sorting: sorting,
  });
  const add = useAddRoleMembers();
  const remove = useRemoveRoleMember();

  return (
    <Drawer
      open={!!role}
      size={640}
      title={role ? t('roles.membersTitle', { role: role.name }) : ''}
      onClose={() => {
        setSearch('');
        setFilter('');
        onClose();
      }}
      destroyOnHidden
      extra={
        canUpdate && (
          <Button type="primary" icon={<UserAddOutlined />} onClick={() => setAdding(true)}>
            {t('roles.addMembers')}
          </Button>
        )
      }
    >
      <Input.Search
        allowClear
        enterButton={<SearchOutlined />}
        placeholder={t('roles.membersSearch')}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        onSearch={(v) => {
          setFilter(v.trim());
          setPaging((p) => ({ ...p, current: 1 }));
        }}
        style={{ marginBottom: 12 }}
      />
      <Table<TRoleMember>
        size="small"
        rowKey="id"
        loading={members.isFetching}
        dataSource={members.data?.items ?? []}
        locale={{ emptyText: t('empty') }}
        pagination={{ ...paging, total: members.data?.totalCount ?? 0, showTotal: (n) => t('total', { count: n }) }}
        onChange={(p, _f, sorter) => {
          setPaging({ current: p.current ?? 1, pageSize: p.pageSize ?? 20 });
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          setSorting(s?.order ? `${String(s.field)} ${s.order === 'descend' ? 'desc' : 'asc'}` : undefined);
        }}
        columns={[
          { title: t('users.columns.userName'), dataIndex: 'userName', sorter: true },
          { title: t('users.columns.name'), dataIndex: 'name', sorter: true, render: (_: string, m) => personDisplayName(m, i18n.language) },
          { title: t('users.columns.email'), dataIndex: 'email', sorter: true, ellipsis: true },
          { title: t('users.columns.status'), dataIndex: 'isActive', width: 80, render: (v: boolean) => (v ? <Tag color="green">{t('users.active')}</Tag> : <Tag>{t('users.inactive')}</Tag>) },
          ...(canUpdate
            ? [
                {
                  title: t('actions'),
                  key: 'actions',
                  width: 90,
                  render: (_: unknown, m: TRoleMember) => (
                    <Popconfirm
                      title={t('roles.removeConfirm', { user: personDisplayName(m, i18n.language) })}
                      okText={t('common:ok')}
                      cancelText={t('common:cancel')}
                      onConfirm={() =>
                        remove
                          .mutateAsync({ id: role!.id, userId: m.id })
                          .then(() => feedback.message?.success(t('roles.removed')))
                          .catch((err: unknown) => (err instanceof ApiError ? undefined : Promise.reject(err)))
                      }
                    >
                      <Button type="link" size="small" danger icon={<DeleteOutlined />}>
                        {t('roles.removeMember')}
                      </Button>
                    </Popconfirm>
                  ),
                },
              ]
            : []),
        ]}
      />
      <AddMembersModal
        open={adding}
        title={t('roles.addMembers')}
        placeholder={t('roles.addPlaceholder')}
        onClose={() => setAdding(false)}
        onAdd={async (userIds) => {
          const res = await add.mutateAsync({ id: role!.id, userIds });
          feedback.message?.success(t('roles.added', { count: res.addedCount }));
        }}
      />
    </Drawer>
  );
}
