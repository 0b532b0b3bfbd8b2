import { Form, Input, Modal, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { ApiError } from '../../../shared/api/client.ts';
import { useCreateUnit, useUpdateUnit } from '../api/organization-units.ts';
import { showFormErrors } from '../../../shared/ui/form-errors.ts';
import '../i18n.ts';
import { validValues } from '../../../shared/ui/form-values.ts';

export type UnitFormTarget =
  | { kind: 'create'; parentId: string | null; parentName: string | null }
  | { kind: 'rename'; id: string; displayName: string; parentId: string | null; concurrencyStamp: string };

/** Create a unit under a parent, or rename one. */
export function UnitFormModal({ target, onClose, onSaved }: { target: UnitFormTarget | null; onClose(): void; onSaved(id: string): void }) {
  const { t } = useTranslation('identity');
  const [form] = Form.useForm<{ displayName: string }>();
  const create = useCreateUnit();
  const update = useUpdateUnit();

  useEffect(() => {
    if (target) form.setFieldsValue({ displayName: target.kind === 'rename' ? target.displayName : '' });
  }, [target, form]);

  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    const { displayName } = values;
    try {
      const saved =
        target!.kind === 'create'
          ? await create.mutateAsync({ displayName: displayName.trim(), parentId: target!.parentId })
          : await update.mutateAsync({
              id: target!.id,
              input: { displayName: displayName.trim(), parentId: target!.parentId, concurrencyStamp: target!.concurrencyStamp },
            });
      feedback.message?.success(target!.kind === 'create' ? t('units.created') : t('saved'));
      onSaved(saved.id);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        feedback.message?.error(err.message);
        onClose();
      } else if (!showFormErrors(form, err, ['displayName'])) throw err;
    }
  };

  return (
    <Modal
      open={!!target}
      title={target?.kind === 'rename' ? t('units.renameTitle') : t('units.createTitle')}
      onCancel={onClose}
      onOk={submit}
      okText={t('common:save')}
      confirmLoading={create.isPending || update.isPending}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        {target?.kind === 'create' && (
          <Form.Item label={t('units.parent')}>
            <Typography.Text>{target.parentName ?? t('units.noParent')}</Typography.Text>
          </Form.Item>
        )}
        <Form.Item name="displayName" label={t('units.displayName')} rules={[{ required: true, whitespace: true, message: t('units.displayNameRequired') }, { max: 128 }]}>
          <Input autoFocus maxLength={128} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
