import { DeleteOutlined, PlusOutlined, SaveOutlined } from '@ant-design/icons';
import { Button, Form, Input, Popconfirm, Space, Switch, Typography } from 'antd';
import type { TBusinessMenu, TBusinessMenuInput } from '@tessera/core/contracts/business-menus';
import { P } from '@tessera/core/contracts/permissions';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { mapValidationErrors, setFieldErrors } from '../../../shared/api/validation-errors.ts';
import { Auth, useAccess } from '../../../shared/components/Auth.tsx';
import { LocalizedTextInput, pickText, requireSomeText } from '../../../shared/components/LocalizedTextInput.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useCreateBusinessMenu, useDeleteBusinessMenu, useUpdateBusinessMenu } from '../api/business-menus.ts';
import { IconPicker } from './IconPicker.tsx';
import { PagePicker } from './PagePicker.tsx';
import '../i18n.ts';

type Values = Pick<TBusinessMenuInput, 'title' | 'url' | 'associateKey' | 'isJump' | 'pageDefinitionId'>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Create (under `parent`) or edit one business menu. */
export function MenuForm({
  menu,
  parent,
  onSaved,
  onDeleted,
  onAddChild,
  onCancel,
}: {
  menu: TBusinessMenu | null;
  parent: TBusinessMenu | null;
  onSaved(menu: TBusinessMenu): void;
  onDeleted(): void;
  onAddChild(): void;
  onCancel(): void;
}) {
  const { t, i18n } = useTranslation('businessMenus');
  const [form] = Form.useForm<Values>();
  const create = useCreateBusinessMenu();
  const update = useUpdateBusinessMenu();
  const remove = useDeleteBusinessMenu();
  const canSave = useAccess(menu ? P.MenusUpdate : P.MenusCreate);
  useEffect(() => {
    form.resetFields();
    if (menu) form.setFieldsValue({ title: menu.title, url: menu.url, associateKey: menu.associateKey ?? '', isJump: menu.isJump, pageDefinitionId: menu.pageDefinitionId ?? '' });
    else form.setFieldsValue({ title: {}, url: null, associateKey: '', isJump: false, pageDefinitionId: '' });
  }, [menu, form]);

  const submit = async (values: Values) => {
    const input: TBusinessMenuInput = {
      title: Object.fromEntries(Object.entries(values.title).filter(([, v]) => v.trim())),
      url: values.url || null,
      associateKey: values.associateKey?.trim() || null,
      isJump: !!values.isJump,
      pageDefinitionId: values.pageDefinitionId?.trim() || null,
    };
    try {
      const saved = menu
        ? await update.mutateAsync({ id: menu.id, input: { ...input, concurrencyStamp: menu.concurrencyStamp } })
        : await create.mutateAsync({ ...input, parentId: parent?.id ?? null });
      feedback.message?.success(t('saved'));
      if (saved) onSaved(saved);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.status === 409) return void feedback.message?.error(t('conflict'));
      const { fields } = mapValidationErrors(err.validationErrors);
      if (fields.length) setFieldErrors(form, fields);
      else feedback.message?.error(err.message);
    }
  };

  return (
    <Form form={form} layout="vertical" onFinish={submit} disabled={!canSave} style={{ maxWidth: 640 }}>
      <Form.Item label={t('form.parent')}>
        <Typography.Text data-testid="menu-parent">{parent ? pickText(parent.title, i18n.language) || '—' : t('form.topLevel')}</Typography.Text>
      </Form.Item>
      <Form.Item name="title" label={t('form.title')} rules={[requireSomeText(t('form.titleRequired'))]} required>
        <LocalizedTextInput maxLength={200} />
      </Form.Item>
      <Form.Item name="url" label={t('form.icon')}>
        <IconPicker />
      </Form.Item>
      <Form.Item name="associateKey" label={t('form.associateKey')} extra={t('form.associateKeyHelp')} rules={[{ max: 200 }]}>
        <Input allowClear />
      </Form.Item>
      <Form.Item name="isJump" label={t('form.isJump')} valuePropName="checked" extra={t('form.isJumpHelp')}>
        <Switch />
      </Form.Item>
      <Form.Item
        name="pageDefinitionId"
        label={t('form.page')}
        extra={t('form.pageHelp')}
        rules={[{ validator: (_, v: string) => (!v || UUID.test(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t('form.pageInvalid')))) }]}
      >
        <PagePicker />
      </Form.Item>
      {menu && (
        <Form.Item label={t('form.permissionCode')} extra={t('form.permissionCodeHelp')}>
          <Typography.Text code copyable data-testid="menu-permission-code">
            {menu.permissionCode}
          </Typography.Text>
        </Form.Item>
      )}
      <Space wrap>
        <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={create.isPending || update.isPending}>
          {t('save')}
        </Button>
        {menu ? (
          <>
            <Auth code={P.MenusCreate}>
              <Button icon={<PlusOutlined />} onClick={onAddChild} disabled={false}>
                {t('addChild')}
              </Button>
            </Auth>
            <Auth code={P.MenusDelete}>
              <Popconfirm
                title={t('confirmDelete')}
                description={menu.subBusinessMenus.length ? t('deleteWithChildren', { count: menu.subBusinessMenus.length }) : undefined}
                onConfirm={async () => {
                  await remove.mutateAsync(menu.id);
                  feedback.message?.success(t('deleted'));
                  onDeleted();
                }}
              >
                <Button danger icon={<DeleteOutlined />} disabled={false}>
                  {t('delete')}
                </Button>
              </Popconfirm>
            </Auth>
          </>
        ) : (
          <Button onClick={onCancel} disabled={false}>
            {t('cancel')}
          </Button>
        )}
      </Space>
    </Form>
  );
}
