import { DeleteOutlined, EditOutlined, LockOutlined, PlusOutlined, ReloadOutlined, SafetyCertificateOutlined, TeamOutlined } from '@ant-design/icons';
import { Button, Card, Input, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import type { TIdentityRole } from '@tessera/core/contracts/identity';
import { P } from '@tessera/core/contracts/permissions';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { useAccessChecker } from '../../../shared/components/Auth.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useDeleteRole, useRoles, useUpdateRole } from '../api/roles.ts';
import { RoleFormModal, type RoleFormTarget } from '../components/RoleFormModal.tsx';
import { RoleMembersDrawer } from '../components/RoleMembersDrawer.tsx';
import { PermissionsDrawer } from '../components/PermissionsDrawer.tsx';
import '../i18n.ts';

const isAdminRole = (r: TIdentityRole) => r.isStatic && r.name.toLowerCase() === 'admin';

/** /builtIn/role: roles with members and permission counts; default-role switch; built-in roles protected. */
export default function RolesPage() {
  const { t } = useTranslation('identity');
  const can = useAccessChecker();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState('');
  const [paging, setPaging] = useState({ current: 1, pageSize: 20 });
  const [sorting, setSorting] = useState<string | undefined>();
  const [editing, setEditing] = useState<RoleFormTarget | null>(null);
  const [membersOf, setMembersOf] = useState<TIdentityRole | null>(null);
  const [permissionsOf, setPermissionsOf] = useState<TIdentityRole | null>(null);
  const roles = useRoles({ SkipCount: (paging.current - 1) * paging.pageSize, MaxResultCount: paging.pageSize, Filter: filter || undefined, Sorting: sorting });
  const update = useUpdateRole();
  const remove = useDeleteRole();

  const toggleDefault = async (role: TIdentityRole, isDefault: boolean) => {
    try {
      await update.mutateAsync({
        id: role.id,
        input: { name: role.name, description: role.description, isPublic: role.isPublic, isDefault, concurrencyStamp: role.concurrencyStamp },
      });
      feedback.message?.success(isDefault ? t('roles.defaultOn') : t('roles.defaultOff'));
    } catch (err) {
      feedback.message?.error(err instanceof ApiError && err.status === 409 ? t('roles.staleText') : (err as Error).message);
    }
  };

  const confirmDelete = (role: TIdentityRole) =>
    feedback.modal?.confirm({
      title: t('confirmDelete'),
      content: role.name,
      okText: t('common:ok'),
      cancelText: t('common:cancel'),
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(role.id).then(() => feedback.message?.success(t('deleted'))),
    });

  return (
    <Card size="small" title={t('roles.title')}>
      <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Input.Search
          allowClear
          placeholder={t('roles.search')}
          style={{ width: 300 }}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onSearch={(v) => {
            setFilter(v.trim());
            setPaging((p) => ({ ...p, current: 1 }));
          }}
          enterButton={t('search')}
        />
        <Space>
          <Button icon={<ReloadOutlined />} onClick={() => roles.refetch()} aria-label={t('refresh')} />
          {can(P.RolesCreate) && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ kind: 'create' })}>
              {t('roles.create')}
            </Button>
          )}
        </Space>
      </Space>
      <Table<TIdentityRole>
        size="small"
        rowKey="id"
        loading={roles.isFetching}
        dataSource={roles.data?.items ?? []}
        locale={{ emptyText: t('empty') }}
        pagination={{ ...paging, total: roles.data?.totalCount ?? 0, showSizeChanger: true, showTotal: (n) => t('total', { count: n }) }}
        onChange={(p, _f, sorter) => {
          setPaging({ current: p.current ?? 1, pageSize: p.pageSize ?? 20 });
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          setSorting(s?.order ? `${String(s.columnKey)} ${s.order === 'descend' ? 'desc' : 'asc'}` : undefined);
        }}
        columns={[
          {
            title: t('roles.name'),
            key: 'name',
            dataIndex: 'name',
            sorter: true,
            render: (v: string, r) => (
              <Space size={6}>
                <Typography.Text strong>{v}</Typography.Text>
                {r.isStatic && (
                  <Tooltip title={t('roles.staticHint')}>
                    <Tag icon={<LockOutlined />} color="purple">
                      {t('roles.static')}
                    </Tag>
                  </Tooltip>
                )}
                {!r.isPublic && <Tag>{t('roles.isPublic')}: {t('no')}</Tag>}
              </Space>
            ),
          },
          { title: t('roles.description'), key: 'description', dataIndex: 'description', ellipsis: true },
          {
            title: t('roles.isDefault'),
            key: 'isDefault',
            dataIndex: 'isDefault',
            sorter: true,
            width: 110,
            render: (v: boolean, r) => (
              <Tooltip title={isAdminRole(r) ? t('roles.adminHint') : t('roles.isDefaultHelp')}>
                <Switch
                  size="small"
                  checked={v}
                  aria-label={`${t('roles.isDefault')} ${r.name}`}
                  disabled={!can(P.RolesUpdate) || isAdminRole(r)}
                  loading={update.isPending && update.variables?.id === r.id}
                  onChange={(checked) => toggleDefault(r, checked)}
                />
              </Tooltip>
            ),
          },
          {
            title: t('roles.users'),
            key: 'userCount',
            dataIndex: 'userCount',
            width: 90,
            render: (v: number, r) => (
              <Button type="link" size="small" icon={<TeamOutlined />} onClick={() => setMembersOf(r)}>
                {v}
              </Button>
            ),
          },
          {
            title: t('roles.permissions'),
            key: 'grantedPermissionCount',
            dataIndex: 'grantedPermissionCount',
            width: 110,
            render: (v: number, r) => {
              const shown = isAdminRole(r) ? <Tag color="red">{t('roles.allPermissions', { count: v })}</Tag> : v;
              // With the grant screen's code the count opens the role's tree (read-only for the administrator role).
              return can(P.Permissions) ? (
                <Tooltip title={t('roles.grantedPermissions')}>
                  <Button type="link" size="small" icon={<SafetyCertificateOutlined />} onClick={() => setPermissionsOf(r)} aria-label={t('roles.permissionsTitle', { role: r.name })}>
                    {shown}
                  </Button>
                </Tooltip>
              ) : (
                shown
              );
            },
          },
          { title: t('roles.creationTime'), key: 'creationTime', dataIndex: 'creationTime', sorter: true, width: 160, render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm') },
          {
            title: t('actions'),
            key: 'actions',
            width: 220,
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" icon={<TeamOutlined />} onClick={() => setMembersOf(r)}>
                  {t('roles.members')}
                </Button>
                {can(P.RolesUpdate) && (
                  <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing({ kind: 'edit', role: r })}>
                    {t('edit')}
                  </Button>
                )}
                {can(P.RolesDelete) && (
                  <Tooltip title={r.isStatic ? t('roles.staticHint') : undefined}>
                    <Button type="link" size="small" danger icon={<DeleteOutlined />} disabled={r.isStatic} onClick={() => confirmDelete(r)}>
                      {t('delete')}
                    </Button>
                  </Tooltip>
                )}
              </Space>
            ),
          },
        ]}
      />
      <RoleFormModal target={editing} onClose={() => setEditing(null)} />
      <RoleMembersDrawer role={membersOf} onClose={() => setMembersOf(null)} />
      <PermissionsDrawer target={permissionsOf && { providerName: 'R', providerKey: permissionsOf.id, name: permissionsOf.name }} onClose={() => setPermissionsOf(null)} />
    </Card>
  );
}
