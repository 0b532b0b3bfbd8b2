import { DeleteOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Col, Drawer, Form, Input, Row, Select, Space, Spin, Switch, Upload } from 'antd';
import { USER_NAME_PATTERN, type TIdentityUser } from '@tessera/core/contracts/identity';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { SelectionItemPicker } from '../../../shared/components/SelectionItemPicker.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { fetchUser, useAssignableRoles, useCreateUser, useUpdateUser } from '../api/users.ts';
import { showFormErrors } from '../../../shared/ui/form-errors.ts';
import '../i18n.ts';
import { validValues } from '../../../shared/ui/form-values.ts';

interface UserForm {
  userName: string;
  name: string;
  surname: string;
  email: string;
  phoneNumber: string;
  password?: string;
  roleNames: string[];
  organizationUnitIds: string[];
  isActive: boolean;
  lockoutEnabled: boolean;
}

const FIELDS = ['userName', 'name', 'surname', 'email', 'phoneNumber', 'password', 'roleNames', 'organizationUnitIds', 'isActive', 'lockoutEnabled', 'avatar'];
const AVATAR_MAX_BYTES = 256 * 1024;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const PHONE = /^[0-9+()\s-]*$/;

export type UserFormTarget = { kind: 'create' } | { kind: 'edit'; id: string };

/** Create or edit a user: profile, roles, units, switches and avatar. Edits send the concurrency stamp. */
export function UserFormDrawer({ target, onClose }: { target: UserFormTarget | null; onClose(): void }) {
  const { t } = useTranslation('identity');
  const [form] = Form.useForm<UserForm>();
  const roles = useAssignableRoles();
  const create = useCreateUser();
  const update = useUpdateUser();
  const editId = target?.kind === 'edit' ? target.id : null;
  const user = useQuery({ queryKey: ['identity', 'users', 'one', editId], queryFn: () => fetchUser(editId!), enabled: !!editId, staleTime: 0 });
  const [avatar, setAvatar] = useState<string | null>(null);

  const fillForm = (u: TIdentityUser) =>
    form.setFieldsValue({
      userName: u.userName,
      name: u.name,
      surname: u.surname,
      email: u.email,
      phoneNumber: u.phoneNumber,
      roleNames: u.roleNames,
      organizationUnitIds: u.organizationUnits.map((o) => o.id),
      isActive: u.isActive,
      lockoutEnabled: u.lockoutEnabled,
    });
  const fill = (u: TIdentityUser) => {
    fillForm(u);
    setAvatar(u.avatar);
  };

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    if (target.kind === 'create') {
      form.setFieldsValue({
        isActive: true,
        lockoutEnabled: true,
        organizationUnitIds: [],
        roleNames: (roles.data?.items ?? []).filter((r) => r.isDefault).map((r) => r.name),
      });
      setAvatar(null);
    } else if (user.data) fill(user.data);
  }, [target, user.data, roles.data]);

  const required = (field: string) => ({ required: true, whitespace: true, message: t('users.required', { field }) });

  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    const body = {
      userName: values.userName.trim(),
      name: values.name?.trim() ?? '',
      surname: values.surname?.trim() ?? '',
      email: values.email?.trim() ?? '',
      phoneNumber: values.phoneNumber?.trim() ?? '',
      isActive: values.isActive,
      lockoutEnabled: values.lockoutEnabled,
      roleNames: values.roleNames ?? [],
      organizationUnitIds: values.organizationUnitIds ?? [],
      avatar,
    };
    try {
      if (target?.kind === 'edit') {
        await update.mutateAsync({ id: target.id, input: { ...body, concurrencyStamp: user.data!.concurrencyStamp } });
      } else {
        await create.mutateAsync({ ...body, password: values.password! });
      }
      feedback.message?.success(t('saved'));
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        // Someone else saved first: show their version and let the admin re-apply.
        feedback.modal?.warning({ title: t('users.staleTitle'), content: t('users.staleText') });
        const fresh = await user.refetch();
        if (fresh.data) fill(fresh.data);
      } else if (!showFormErrors(form, err, FIELDS)) throw err;
    }
  };

  const readAvatar = (file: File) => {
    if (!/^image\/(png|jpeg|gif|webp)$/.test(file.type)) feedback.message?.error(t('users.fields.avatarType'));
    else if (file.size > AVATAR_MAX_BYTES) feedback.message?.error(t('users.fields.avatarTooLarge'));
    else {
      const reader = new FileReader();
      reader.onload = () => setAvatar(String(reader.result));
      reader.readAsDataURL(file);
    }
    return Upload.LIST_IGNORE;
  };

  const loading = target?.kind === 'edit' && user.isLoading;
  return (
    <Drawer
      open={!!target}
      title={target?.kind === 'edit' ? t('users.editTitle') : t('users.createTitle')}
      size={560}
      onClose={onClose}
      destroyOnHidden
      forceRender
      extra={
        <Space>
          <Button onClick={onClose}>{t('common:cancel')}</Button>
          <Button type="primary" onClick={submit} loading={create.isPending || update.isPending} disabled={loading}>
            {t('common:save')}
          </Button>
        </Space>
      }
    >
      <Spin spinning={!!loading}>
        <Form form={form} layout="vertical" requiredMark onFinish={submit} aria-label={t('users.editTitle')}>
          <Form.Item label={t('users.fields.avatar')}>
            <Space>
              <Avatar size={56} src={avatar || undefined} icon={<UserOutlined />} />
              <Upload accept="image/png,image/jpeg,image/gif,image/webp" showUploadList={false} beforeUpload={readAvatar}>
                <Button icon={<UploadOutlined />}>{t('users.fields.avatarUpload')}</Button>
              </Upload>
              {avatar && (
                <Button icon={<DeleteOutlined />} onClick={() => setAvatar(null)}>
                  {t('users.fields.avatarRemove')}
                </Button>
              )}
            </Space>
          </Form.Item>
          <Form.Item
            name="userName"
            label={t('users.fields.userName')}
            tooltip={t('users.fields.userNameHelp')}
            rules={[required(t('users.fields.userName')), { max: 64 }, { pattern: USER_NAME_PATTERN, message: t('users.invalidUserName') }]}
          >
            <Input autoComplete="off" maxLength={64} />
          </Form.Item>
          {target?.kind === 'create' && (
            <Form.Item name="password" label={t('users.fields.password')} extra={t('users.fields.passwordHelp')} rules={[{ required: true, message: t('users.required', { field: t('users.fields.password') }) }, { max: 128 }]}>
              <Input.Password autoComplete="new-password" maxLength={128} />
            </Form.Item>
          )}
          <Row gutter={12}>
            <Col span={12}>
              <Form.Item name="surname" label={t('users.fields.surname')} rules={[{ max: 64 }]}>
                <Input maxLength={64} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="name" label={t('users.fields.name')} rules={[{ max: 64 }]}>
                <Input maxLength={64} />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={12}>
            <Col span={12}>
              <Form.Item name="email" label={t('users.fields.email')} rules={[{ max: 256 }, { pattern: EMAIL, message: t('users.invalidEmail') }]}>
                <Input type="email" maxLength={256} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="phoneNumber" label={t('users.fields.phoneNumber')} rules={[{ max: 32 }, { pattern: PHONE, message: t('users.invalidPhone') }]}>
                <Input maxLength={32} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="roleNames" label={t('users.fields.roleNames')}>
            <Select
              mode="multiple"
              allowClear
              loading={roles.isLoading}
              placeholder={t('users.fields.rolesPlaceholder')}
              options={(roles.data?.items ?? []).map((r) => ({ value: r.name, label: r.name }))}
            />
          </Form.Item>
          <Form.Item name="organizationUnitIds" label={t('users.fields.organizationUnitIds')}>
            <SelectionItemPicker type={1} multiple placeholder={t('users.fields.unitsPlaceholder')} />
          </Form.Item>
          <Row gutter={12}>
            <Col span={12}>
              <Form.Item name="isActive" label={t('users.fields.isActive')} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="lockoutEnabled" label={t('users.fields.lockoutEnabled')} tooltip={t('users.fields.lockoutEnabledHelp')} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
          </Row>
        </Form>
      </Spin>
    </Drawer>
  );
}
