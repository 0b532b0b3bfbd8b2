import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  KeyOutlined,
  LockOutlined,
  LogoutOutlined,
  MoreOutlined,
  PlusOutlined,
  ReloadOutlined,
  SafetyCertificateOutlined,
  SearchOutlined,
  UnlockOutlined,
  UploadOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { personDisplayName } from '@tessera/core/helpers/person-name';
import { Avatar, Button, Card, Checkbox, Dropdown, Form, Input, Select, Space, Table, Tag, Tooltip } from 'antd';
import type { MenuProps } from 'antd';
import type { TIdentityUser } from '@tessera/core/contracts/identity';
import { P } from '@tessera/core/contracts/permissions';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { useSession } from '../../../shared/auth/session.ts';
import { useAccessChecker } from '../../../shared/components/Auth.tsx';
import { SelectionItemPicker } from '../../../shared/components/SelectionItemPicker.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { downloadUserExport, useAssignableRoles, useDeleteUser, useRevokeSessions, useUnlockUser, useUsers, type UserListQuery } from '../api/users.ts';
import { ImportUsersModal } from '../components/ImportUsersModal.tsx';
import { PermissionsDrawer, type PermissionsTarget } from '../components/PermissionsDrawer.tsx';
import { LockUserModal } from '../components/LockUserModal.tsx';
import { ResetPasswordModal } from '../components/ResetPasswordModal.tsx';
import { UserFormDrawer, type UserFormTarget } from '../components/UserFormDrawer.tsx';
import '../i18n.ts';

interface Filters {
  filter?: string;
  unitId?: string | null;
  includeChildUnits?: boolean;
  roleId?: string;
  status?: 'active' | 'inactive' | 'locked';
}

/** /builtIn/user: search, filter, page and sort users; create, edit, lock, reset, sign out, import, export, delete. */
export default function UsersPage() {
  const { t, i18n } = useTranslation('identity');
  const can = useAccessChecker();
  const me = useSession((s) => s.user);
  const [form] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({ includeChildUnits: true });
  const [paging, setPaging] = useState({ current: 1, pageSize: 20 });
  const [sorting, setSorting] = useState<string | undefined>();
  const [editing, setEditing] = useState<UserFormTarget | null>(null);
  const [locking, setLocking] = useState<TIdentityUser | null>(null);
  const [resetting, setResetting] = useState<TIdentityUser | null>(null);
  const [permissionsOf, setPermissionsOf] = useState<PermissionsTarget | null>(null);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const roles = useAssignableRoles();
  const remove = useDeleteUser();
  const unlock = useUnlockUser();
  const revoke = useRevokeSessions();

  const criteria: Omit<UserListQuery, 'SkipCount' | 'MaxResultCount'> = {
    Filter: filters.filter?.trim() || undefined,
    OrganizationUnitId: filters.unitId ?? undefined,
    IncludeChildUnits: filters.unitId ? !!filters.includeChildUnits : undefined,
    RoleId: filters.roleId,
    IsActive: filters.status === 'active' ? true : filters.status === 'inactive' ? false : undefined,
    IsLockedOut: filters.status === 'locked' ? true : undefined,
    Sorting: sorting,
  };
  const users = useUsers({ ...criteria, SkipCount: (paging.current - 1) * paging.pageSize, MaxResultCount: paging.pageSize });

  const apply = (values: Filters) => {
    setFilters(values);
    setPaging((p) => ({ ...p, current: 1 }));
  };

  const confirmDelete = (u: TIdentityUser) =>
    feedback.modal?.confirm({
      title: t('confirmDelete'),
      content: `${u.userName}（${personDisplayName(u, i18n.language)}）`,
      okText: t('common:ok'),
      cancelText: t('common:cancel'),
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(u.id).then(() => feedback.message?.success(t('deleted'))),
    });

  const confirmRevoke = (u: TIdentityUser) =>
    feedback.modal?.confirm({
      title: t('confirmOperation'),
      content: t('users.revokeConfirm', { user: u.userName }),
      okText: t('common:ok'),
      cancelText: t('common:cancel'),
      onOk: () => revoke.mutateAsync(u.id).then((r) => feedback.message?.success(t('users.revoked', { count: r.revokedCount }))),
    });

  const rowMenu = (u: TIdentityUser): MenuProps['items'] => {
    const self = u.id === me?.userId;
    return [
      can(P.UsersLock) &&
        (u.isLockedOut
          ? { key: 'unlock', icon: <UnlockOutlined />, label: t('users.unlock'), onClick: () => unlock.mutateAsync(u.id).then(() => feedback.message?.success(t('users.unlocked'))) }
          : { key: 'lock', icon: <LockOutlined />, label: t('users.lock'), disabled: self, onClick: () => setLocking(u) }),
      can(P.UsersResetPassword) && { key: 'reset', icon: <KeyOutlined />, label: t('users.resetPassword'), onClick: () => setResetting(u) },
      can(P.UsersRevokeSessions) && { key: 'revoke', icon: <LogoutOutlined />, label: t('users.revokeSessions'), onClick: () => confirmRevoke(u) },
      can(P.Permissions) && {
        key: 'permissions',
        icon: <SafetyCertificateOutlined />,
        label: t('users.permissions'),
        onClick: () => setPermissionsOf({ providerName: 'U', providerKey: u.id, name: u.userName }),
      },
      can(P.UsersDelete) && { type: 'divider' as const },
      can(P.UsersDelete) && { key: 'delete', icon: <DeleteOutlined />, danger: true, disabled: self, label: t('delete'), onClick: () => confirmDelete(u) },
    ].filter(Boolean) as MenuProps['items'];
  };

  const exportFile = async () => {
    setExporting(true);
    try {
      await downloadUserExport(criteria);
    } catch (err) {
      feedback.message?.error(err instanceof ApiError ? err.message : String(err));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card size="small" title={t('users.title')}>
      <Form form={form} layout="inline" onFinish={apply} initialValues={{ includeChildUnits: true }} style={{ rowGap: 8, marginBottom: 12 }}>
        <Form.Item name="filter">
          <Input allowClear prefix={<SearchOutlined />} style={{ width: 300 }} placeholder={t('users.search')} aria-label={t('users.search')} />
        </Form.Item>
        <Form.Item name="unitId" label={t('users.unit')}>
          <SelectionItemPicker type={1} placeholder={t('users.unitPlaceholder')} style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="includeChildUnits" valuePropName="checked">
          <Checkbox>{t('users.includeChildUnits')}</Checkbox>
        </Form.Item>
        <Form.Item name="roleId" label={t('users.role')}>
          <Select allowClear style={{ width: 150 }} placeholder={t('users.rolePlaceholder')} options={(roles.data?.items ?? []).map((r) => ({ value: r.id, label: r.name }))} />
        </Form.Item>
        <Form.Item name="status" label={t('users.status')}>
          <Select
            allowClear
            style={{ width: 120 }}
            placeholder={t('users.statusPlaceholder')}
            options={[
              { value: 'active', label: t('users.active') },
              { value: 'inactive', label: t('users.inactive') },
              { value: 'locked', label: t('users.locked') },
            ]}
          />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
              {t('search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                apply({ includeChildUnits: true });
              }}
            >
              {t('reset')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
      <Space wrap style={{ marginBottom: 12 }}>
        {can(P.UsersCreate) && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ kind: 'create' })}>
            {t('users.create')}
          </Button>
        )}
        {can(P.UsersImport) && (
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
            {t('users.import')}
          </Button>
        )}
        {can(P.UsersExport) && (
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={exportFile}>
            {t('users.export')}
          </Button>
        )}
        <Button icon={<ReloadOutlined />} onClick={() => users.refetch()} aria-label={t('refresh')} />
      </Space>
      <Table<TIdentityUser>
        size="small"
        rowKey="id"
        loading={users.isFetching}
        dataSource={users.data?.items ?? []}
        locale={{ emptyText: t('empty') }}
        scroll={{ x: 1100 }}
        pagination={{
          ...paging,
          total: users.data?.totalCount ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          showQuickJumper: true,
          showTotal: (n) => t('total', { count: n }),
        }}
        onChange={(p, _f, sorter) => {
          setPaging({ current: p.current ?? 1, pageSize: p.pageSize ?? 20 });
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          setSorting(s?.order ? `${String(s.columnKey)} ${s.order === 'descend' ? 'desc' : 'asc'}` : undefined);
        }}
        columns={[
          {
            title: t('users.columns.userName'),
            key: 'userName',
            dataIndex: 'userName',
            sorter: true,
            fixed: 'left',
            width: 180,
            render: (v: string, u) => (
              <Space size={8}>
                <Avatar size="small" src={u.avatar || undefined} icon={<UserOutlined />} />
                <span>{v}</span>
                {u.id === me?.userId && <Tag>{t('users.self')}</Tag>}
              </Space>
            ),
          },
          { title: t('users.columns.name'), key: 'name', dataIndex: 'name', sorter: true, width: 120, render: (_: string, u) => personDisplayName(u, i18n.language) },
          {
            title: t('users.columns.status'),
            key: 'isActive',
            dataIndex: 'isActive',
            sorter: true,
            // Beside the name, so it is in view without scrolling; room for 启用 and 🔒已锁定 side by side.
            width: 200,
            render: (_: boolean, u) => (
              <Space size={4} wrap>
                {u.isActive ? <Tag color="green">{t('users.active')}</Tag> : <Tag>{t('users.inactive')}</Tag>}
                {u.isLockedOut && (
                  <Tooltip title={t('users.lockedUntil', { time: dayjs(u.lockoutEnd).format('YYYY-MM-DD HH:mm') })}>
                    <Tag color="red" icon={<LockOutlined />}>
                      {t('users.locked')}
                    </Tag>
                  </Tooltip>
                )}
              </Space>
            ),
          },
          { title: t('users.columns.email'), key: 'email', dataIndex: 'email', sorter: true, ellipsis: true, width: 200 },
          { title: t('users.columns.phoneNumber'), key: 'phoneNumber', dataIndex: 'phoneNumber', sorter: true, width: 140 },
          {
            title: t('users.columns.roles'),
            key: 'roles',
            width: 160,
            render: (_, u) => (
              <Space size={[0, 4]} wrap>
                {u.roleNames.map((r) => (
                  <Tag key={r} color={r === 'admin' ? 'red' : 'blue'}>
                    {r}
                  </Tag>
                ))}
              </Space>
            ),
          },
          {
            title: t('users.columns.units'),
            key: 'units',
            ellipsis: true,
            width: 180,
            render: (_, u) => u.organizationUnits.map((o) => o.displayName).join('、'),
          },
          {
            title: t('users.columns.creationTime'),
            key: 'creationTime',
            dataIndex: 'creationTime',
            sorter: true,
            defaultSortOrder: 'descend',
            width: 160,
            render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
          },
          {
            title: t('actions'),
            key: 'actions',
            fixed: 'right',
            width: 120,
            render: (_, u) => {
              const items = rowMenu(u);
              return (
                <Space size={0}>
                  {can(P.UsersUpdate) && (
                    <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing({ kind: 'edit', id: u.id })}>
                      {t('edit')}
                    </Button>
                  )}
                  {(items?.length ?? 0) > 0 && (
                    <Dropdown menu={{ items }} trigger={['click']}>
                      <Button type="text" size="small" icon={<MoreOutlined />} aria-label={`${t('more')} ${u.userName}`} />
                    </Dropdown>
                  )}
                </Space>
              );
            },
          },
        ]}
      />
      <UserFormDrawer target={editing} onClose={() => setEditing(null)} />
      <LockUserModal user={locking} onClose={() => setLocking(null)} />
      <ResetPasswordModal user={resetting} onClose={() => setResetting(null)} />
      <ImportUsersModal open={importing} onClose={() => setImporting(false)} />
      <PermissionsDrawer target={permissionsOf} onClose={() => setPermissionsOf(null)} />
    </Card>
  );
}
