import { Alert, Form, Input, Modal } from 'antd';
import { IDENTIFIER_PATTERN, type TPageDefinitionListItem } from '@tessera/core/contracts/pages';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { mapValidationErrors, setFieldErrors } from '../../../shared/api/validation-errors.ts';
import { LocalizedTextInput, pickText } from '../../../shared/components/LocalizedTextInput.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useCopyPageDefinition, useCreatePageDefinition, useRenamePageDefinition } from '../api/page-definitions.ts';
import './page-list-texts.ts';
import { validValues } from '../../../shared/ui/form-values.ts';

export type PageFormTarget = { kind: 'create' } | { kind: 'copy'; page: TPageDefinitionListItem } | { kind: 'rename'; page: TPageDefinitionListItem };

interface Values {
  code: string;
  name: Record<string, string>;
  description?: string;
}

const FORM_FIELDS = ['code', 'name', 'description'];

/** Puts the server's validation errors on the form fields (members `code`, `name`, …). */
export function applyServerErrors(form: ReturnType<typeof Form.useForm<Values>>[0], err: unknown): boolean {
  if (!(err instanceof ApiError) || err.status !== 400 || err.validationErrors.length === 0) return false;
  // A member is named by its last part; a message naming none of the fields shows at the code.
  const { fields } = mapValidationErrors(
    err.validationErrors.map((v) => ({ message: v.message, members: [v.members?.[0] ?? ''] })),
    { field: (path) => [FORM_FIELDS.includes(String(path.at(-1))) ? String(path.at(-1)) : 'code'] },
  );
  setFieldErrors(form, fields);
  return true;
}

/** Create, copy and rename a page definition (code, multilingual name, description). */
export function PageFormModal({ target, onClose, onCreated }: { target: PageFormTarget | null; onClose: () => void; onCreated?: (id: string) => void }) {
  const { t, i18n } = useTranslation('pageList');
  const [form] = Form.useForm<Values>();
  const create = useCreatePageDefinition();
  const copy = useCopyPageDefinition();
  const rename = useRenamePageDefinition();
  const pending = create.isPending || copy.isPending || rename.isPending;
  const codeFixed = target?.kind === 'rename' && target.page.publishedVersion !== null;

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    if (target.kind === 'copy') form.setFieldsValue({ code: `${target.page.code}_copy`.slice(0, 40), name: target.page.name });
    if (target.kind === 'rename') form.setFieldsValue({ code: target.page.code, name: target.page.name, description: target.page.description ?? '' });
  }, [target, form]);

  const submit = async () => {
    const values = await validValues(form);
    if (!values) return;
    const name = Object.fromEntries(Object.entries(values.name ?? {}).filter(([, v]) => v.trim() !== ''));
    try {
      if (target?.kind === 'create') {
        const page = await create.mutateAsync({ code: values.code.trim(), name, description: values.description?.trim() || null });
        feedback.message?.success(t('created'));
        onCreated?.(page.id);
      } else if (target?.kind === 'copy') {
        const page = await copy.mutateAsync({ id: target.page.id, input: { code: values.code.trim(), name } });
        feedback.message?.success(t('copied'));
        onCreated?.(page.id);
      } else if (target?.kind === 'rename') {
        await rename.mutateAsync({
          id: target.page.id,
          input: {
            ...(codeFixed ? {} : { code: values.code.trim() }),
            name,
            description: values.description?.trim() || null,
            concurrencyStamp: target.page.concurrencyStamp,
          },
        });
        feedback.message?.success(t('renamed'));
      }
      onClose();
    } catch (err) {
      if (applyServerErrors(form, err)) return;
      feedback.message?.error(err instanceof ApiError && err.status === 409 ? t('stale') : (err as Error).message);
    }
  };

  const title =
    target?.kind === 'copy' ? t('copyTitle', { name: pickText(target.page.name, i18n.language) || target.page.code }) : target?.kind === 'rename' ? t('renameTitle') : t('createTitle');

  return (
    <Modal open={Boolean(target)} title={title} onCancel={onClose} onOk={submit} confirmLoading={pending} okText={t('ok')} cancelText={t('cancel')} destroyOnHidden>
      {target?.kind === 'copy' && <Alert type="info" showIcon title={t('copyHint')} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item
          name="code"
          label={t('code')}
          extra={codeFixed ? t('codeFixed') : t('codeHelp')}
          rules={[
            { required: true, whitespace: true, message: t('codeRequired') },
            { pattern: IDENTIFIER_PATTERN, message: t('codeHelp') },
          ]}
        >
          <Input maxLength={40} disabled={codeFixed} autoComplete="off" data-testid="page-code" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('name')}
          rules={[{ validator: (_, v: Record<string, string> | undefined) => (Object.values(v ?? {}).some((s) => s.trim()) ? Promise.resolve() : Promise.reject(new Error(t('nameRequired')))) }]}
        >
          <LocalizedTextInput maxLength={200} />
        </Form.Item>
        {target?.kind !== 'copy' && (
          <Form.Item name="description" label={t('description')}>
            <Input.TextArea maxLength={500} rows={2} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
