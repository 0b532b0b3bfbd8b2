import { App, Form, Input, InputNumber, Modal, Switch } from 'antd';
import { CULTURE_PATTERN, type TLanguagePack, type TLanguagePackInput } from '@tessera/core/contracts/localization';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { useCreatePack, useUpdatePack } from '../api/localization.ts';
import { showFieldErrors } from './form-errors.ts';

interface Props {
  open: boolean;
  /** The pack to edit; null creates one. */
  pack: TLanguagePack | null;
  onClose(): void;
}

export function PackFormModal({ open, pack, onClose }: Props) {
  const { t } = useTranslation('localization');
  const { message } = App.useApp();
  const [form] = Form.useForm<TLanguagePackInput>();
  const create = useCreatePack();
  const update = useUpdatePack();

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      pack
        ? { culture: pack.culture, title: pack.title, flag: pack.flag ?? '', order: pack.order, isEnabled: pack.isEnabled, isDefault: pack.isDefault }
        : { culture: '', title: '', flag: '', isEnabled: true, isDefault: false },
    );
  }, [open, pack, form]);

  const submit = async (values: TLanguagePackInput) => {
    const input: TLanguagePackInput = {
      ...values,
      culture: values.culture.trim(),
      title: values.title.trim(),
      flag: values.flag ? values.flag.trim().toUpperCase() : null,
      order: values.order ?? undefined,
      concurrencyStamp: pack?.concurrencyStamp,
    };
    try {
      if (pack) await update.mutateAsync({ id: pack.id, input });
      else await create.mutateAsync(input);
      message.success(t('packs.saved'));
      onClose();
    } catch (err) {
      if (!showFieldErrors(form, err, ['culture', 'title', 'flag', 'order', 'isEnabled', 'isDefault'])) {
        message.error(err instanceof ApiError ? err.message : String(err));
      }
    }
  };

  return (
    <Modal
      open={open}
      title={pack ? t('packs.edit') : t('packs.create')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={create.isPending || update.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item name="culture" label={t('packs.culture')} extra={t('packs.cultureHelp')} rules={[{ required: true, pattern: CULTURE_PATTERN, message: t('packs.cultureInvalid') }]}>
          <Input disabled={!!pack} autoComplete="off" placeholder="fr-FR" />
        </Form.Item>
        <Form.Item name="title" label={t('packs.title')} extra={t('packs.titleHelp')} rules={[{ required: true, whitespace: true, message: t('packs.titleRequired') }]}>
          <Input maxLength={100} placeholder="Français" />
        </Form.Item>
        <Form.Item name="flag" label={t('packs.flag')} extra={t('packs.flagHelp')} rules={[{ pattern: /^[A-Za-z]{2}$/, message: t('packs.flagInvalid') }]}>
          <Input maxLength={2} style={{ width: 120 }} />
        </Form.Item>
        <Form.Item name="order" label={t('packs.order')}>
          <InputNumber min={0} max={100000} precision={0} />
        </Form.Item>
        <Form.Item name="isEnabled" label={t('packs.enabled')} valuePropName="checked">
          <Switch disabled={pack?.isDefault} />
        </Form.Item>
        <Form.Item name="isDefault" label={t('packs.isDefault')} extra={t('packs.defaultHelp')} valuePropName="checked">
          <Switch disabled={pack?.isDefault} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
