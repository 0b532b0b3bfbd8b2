import { CheckCircleFilled } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Radio, Select, Space, TreeSelect, Typography } from 'antd';
import type { TBusinessMenu, TBusinessMenuList, TPageMenuInput, TPageMenuResult } from '@tessera/core/contracts/business-menus';
import type { TIdentityRole } from '@tessera/core/contracts/identity';
import type { TPageDefinitionDetail } from '@tessera/core/contracts/pages';
import { P } from '@tessera/core/contracts/permissions';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, ApiError } from '../../../shared/api/client.ts';
import { mapValidationErrors, setFieldErrors } from '../../../shared/api/validation-errors.ts';
import { useAccess } from '../../../shared/components/Auth.tsx';
import { LocalizedTextInput, pickText, requireSomeText } from '../../../shared/components/LocalizedTextInput.tsx';
import { IconPicker } from '../../business-menus/components/IconPicker.tsx';

// After a page's first publish: "create a business menu and grant it to roles" in one step
// (`POST /api/app/business-menu/for-page`, one transaction on the server).

type Values = Pick<TPageMenuInput, 'title' | 'url' | 'parentId' | 'roleIds' | 'use'>;

type MenuOption = { value: string; title: string; children: MenuOption[] };
const menuTree = (menus: TBusinessMenu[], language: string): MenuOption[] =>
  menus.map((m) => ({ value: m.id, title: pickText(m.title, language), children: menuTree(m.subBusinessMenus, language) }));

/** The top-level menu above `id` (a leaf opens at /menu/{top}/params/{leaf}). */
function topOf(menus: TBusinessMenu[], id: string | null | undefined): string | null {
  for (const top of menus) {
    const walk = (m: TBusinessMenu): boolean => m.id === id || m.subBusinessMenus.some(walk);
    if (walk(top)) return top.id;
  }
  return null;
}

export function PageMenuSetup({ page, onDone }: { page: TPageDefinitionDetail; onDone(): void }) {
  const { t, i18n } = useTranslation('pageDesigner');
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const canGrant = useAccess(P.PermissionsGrant);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ result: TPageMenuResult; path: string } | null>(null);
  const menus = useQuery({
    queryKey: ['business-menus', 'all', 'for-page'],
    queryFn: () => api.get<TBusinessMenuList>('/app/business-menu/all', { SkipCount: 0, MaxResultCount: 1000 }),
  });
  const roles = useQuery({
    queryKey: ['identity', 'roles', 'for-page-menu'],
    queryFn: () => api.get<{ items: TIdentityRole[] }>('/identity/roles', { SkipCount: 0, MaxResultCount: 1000, Sorting: 'name' }),
    enabled: canGrant,
  });
  // The administrator role holds every code already; granting to it is refused.
  const roleOptions = (roles.data?.items ?? []).filter((r) => !(r.isStatic && r.name.toLowerCase() === 'admin')).map((r) => ({ value: r.id, label: r.name }));

  const submit = async (values: Values) => {
    setSaving(true);
    setError(null);
    try {
      const input: TPageMenuInput = {
        pageDefinitionId: page.id,
        title: Object.fromEntries(Object.entries(values.title ?? {}).filter(([, v]) => v.trim())),
        url: values.url || null,
        parentId: values.parentId || null,
        roleIds: canGrant ? (values.roleIds ?? []) : [],
        use: values.use ?? 'work',
      };
      const result = await api.post<TPageMenuResult>('/app/business-menu/for-page', input, { silent: true });
      const all = [...(menus.data?.items ?? [])];
      const top = input.parentId ? topOf(all, input.parentId) : null;
      setCreated({ result, path: `/menu/${top ?? result.menu.id}/params/${result.menu.id}` });
      void client.invalidateQueries({ queryKey: ['business-menus'] });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const { fields, general } = mapValidationErrors(e.validationErrors, { fields: ['title', 'url', 'parentId', 'roleIds', 'use'] });
      setFieldErrors(form, fields);
      setError(fields.length && !general.length ? null : (general[0] ?? e.message));
    } finally {
      setSaving(false);
    }
  };

  if (created) {
    const roleCount = created.result.grants.length;
    return (
      <Alert
        type="success"
        showIcon
        icon={<CheckCircleFilled />}
        data-testid="page-menu-created"
        message={roleCount ? t('menuSetup.createdGranted', { title: pickText(created.result.menu.title, i18n.language), count: roleCount }) : t('menuSetup.created', { title: pickText(created.result.menu.title, i18n.language) })}
        action={
          <Link to={created.path} onClick={onDone}>
            {t('menuSetup.open')}
          </Link>
        }
      />
    );
  }

  return (
    <div data-testid="page-menu-setup">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('menuSetup.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('menuSetup.hint')}</Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="vertical" initialValues={{ title: page.name, use: 'work', roleIds: [] }} onFinish={(v) => void submit(v)}>
        <Form.Item name="title" label={t('menuSetup.menuTitle')} rules={[requireSomeText(t('menuSetup.titleRequired'))]}>
          <LocalizedTextInput maxLength={100} />
        </Form.Item>
        <Space size={16} wrap style={{ width: '100%' }} align="start">
          <Form.Item name="parentId" label={t('menuSetup.parent')} style={{ minWidth: 260 }}>
            <TreeSelect allowClear treeDefaultExpandAll loading={menus.isLoading} placeholder={t('menuSetup.topLevel')} treeData={menuTree(menus.data?.items ?? [], i18n.language)} />
          </Form.Item>
          <Form.Item name="url" label={t('menuSetup.icon')}>
            <IconPicker />
          </Form.Item>
        </Space>
        {canGrant ? (
          <>
            <Form.Item name="roleIds" label={t('menuSetup.roles')} extra={t('menuSetup.rolesHint')}>
              <Select mode="multiple" allowClear loading={roles.isLoading} options={roleOptions} placeholder={t('menuSetup.rolesPlaceholder')} optionFilterProp="label" />
            </Form.Item>
            <Form.Item name="use" label={t('menuSetup.use')}>
              <Radio.Group
                options={[
                  { value: 'work', label: t('menuSetup.useWork') },
                  { value: 'read', label: t('menuSetup.useRead') },
                ]}
              />
            </Form.Item>
          </>
        ) : (
          <Typography.Paragraph type="secondary">{t('menuSetup.noGrantRight')}</Typography.Paragraph>
        )}
        <Space>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="page-menu-create">
            {t('menuSetup.create')}
          </Button>
          <Button onClick={onDone}>{t('menuSetup.later')}</Button>
        </Space>
      </Form>
    </div>
  );
}
