import { AutoComplete, Form, Input, Modal, Select } from 'antd';
import type { TPermissionDefinition, TPermissionDefinitionGroup } from '@tessera/core/contracts/authorization';
import { BIZ_PERMISSION_PATTERN } from '@tessera/core/contracts/authorization';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { mapValidationErrors, setFieldErrors } from '../../../shared/api/validation-errors.ts';
import { LocalizedTextInput, pickText, requireSomeText } from '../../../shared/components/LocalizedTextInput.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useCreateDefinition, useUpdateDefinition } from '../api/permission-definitions.ts';
import '../i18n.ts';
import { validValues } from '../../../shared/ui/form-values.ts';

interface FormValues {
  name: string;
  groupName: string;
  groupDisplayName: Record<string, string>;
  displayName: Record<string, string>;
  parentName?: string | null;
}

/** Create or edit one designer-defined code (`Biz.<page>.<action>`). */
export function DefinitionFormModal({
  open,
  editing,
  groups,
  siblings,
  defaultGroup,
  onClose,
}: {
  open: boolean;
  editing: TPermissionDefinition | null;
  groups: TPermissionDefinitionGroup[];
  /** Codes of the chosen group (for the parent). */
  siblings: TPermissionDefinition[];
  defaultGroup?: TPermissionDefinitionGroup;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation('authorization');
  const [form] = Form.useForm<FormValues>();
  const create = useCreateDefinition();
  const update = useUpdateDefinition();
  const groupName = Form.useWatch('groupName', form);
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing) form.setFieldsValue({ ...editing, parentName: editing.parentName ?? null });
    else if (defaultGroup && !defaultGroup.isSystem) {
      form.setFieldsValue({ groupName: defaultGroup.name, groupDisplayName: defaultGroup.displayName, name: `${defaultGroup.name}.` });
    } else form.setFieldsValue({ name: 'Biz.', groupName: 'Biz.' });
  }, [open, editing, defaultGroup, form]);

  const designerGroups = groups.filter((g) => !g.isSystem && g.name !== 'Biz.Menu');
  const parents = siblings.filter((d) => d.groupName === groupName && d.name !== editing?.name);

  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    try {
      if (editing) {
        await update.mutateAsync({
          name: editing.name,
          input: { displayName: values.displayName, groupDisplayName: values.groupDisplayName, parentName: values.parentName ?? null },
        });
      } else {
        await create.mutateAsync({ ...values, parentName: values.parentName ?? null });
      }
      feedback.message?.success(t('saved'));
      onClose();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const { fields } = mapValidationErrors(err.validationErrors);
      if (fields.length) setFieldErrors(form, fields);
      else feedback.message?.error(err.message);
    }
  };

  const codeRule = { pattern: BIZ_PERMISSION_PATTERN, message: t('definitions.codeRule') };
  return (
    <Modal
      open={open}
      title={editing ? t('definitions.editTitle') : t('definitions.createTitle')}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={create.isPending || update.isPending}
      width={620}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item name="groupName" label={t('definitions.group')} rules={[{ required: true }, codeRule]} extra={t('definitions.groupHelp')}>
          {/* An existing business group, or a new one typed in. */}
          <AutoComplete
            disabled={!!editing}
            placeholder="Biz.Orders"
            options={designerGroups.map((g) => ({ value: g.name, label: `${pickText(g.displayName, i18n.language)} (${g.name})` }))}
            filterOption={(input, option) => String(option?.value ?? '').toLowerCase().includes(input.toLowerCase())}
            onSelect={(value: string) => {
              const g = designerGroups.find((x) => x.name === value);
              if (g) form.setFieldsValue({ groupDisplayName: g.displayName });
              const name = form.getFieldValue('name') as string | undefined;
              if (!editing && (!name || name === 'Biz.' || name.endsWith('.'))) form.setFieldsValue({ name: `${value}.` });
            }}
          />
        </Form.Item>
        <Form.Item name="groupDisplayName" label={t('definitions.groupDisplayName')} rules={[requireSomeText(t('requiredText'))]}>
          <LocalizedTextInput />
        </Form.Item>
        <Form.Item name="name" label={t('definitions.code')} rules={[{ required: true }, codeRule]} extra={t('definitions.codeHelp')}>
          <Input disabled={!!editing} placeholder="Biz.Orders.Approve" />
        </Form.Item>
        <Form.Item name="displayName" label={t('definitions.displayName')} rules={[requireSomeText(t('requiredText'))]}>
          <LocalizedTextInput />
        </Form.Item>
        <Form.Item name="parentName" label={t('definitions.parent')}>
          <Select allowClear options={parents.map((d) => ({ value: d.name, label: `${pickText(d.displayName, i18n.language)} (${d.name})` }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
