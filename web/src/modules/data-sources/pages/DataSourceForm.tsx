import { ApiOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Form, Modal, Result, Spin, type ButtonProps } from 'antd';
import type { TDataSource, TDataSourceKind } from '@tessera/core/contracts/data-sources';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { mapValidationErrors, setFieldErrors } from '../../../shared/api/validation-errors.ts';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { showFormErrors } from '../../../shared/ui/form-errors.ts';
import { validValues } from '../../../shared/ui/form-values.ts';
import { useDataSource, useSaveDataSource, useTestDataSourceSettings } from '../api/data-sources.ts';
import { errorText, serverError } from '../api/server-error.ts';
import { ConnectionTestResult, type ConnectionTestOutcome } from '../components/ConnectionTestResult.tsx';
import { CONNECTION_FIELDS, FORM_FIELDS, formValuesOf, HTTP_CONNECTION_FIELDS,
  OWN_CONNECTION_FIELDS, httpFormField, newFormValues, portAfterKindChange, settingsInput, type DataSourceFormValues } from '../components/data-source-form.ts';
import { DataSourceFields } from '../components/DataSourceFields.tsx';
import '../i18n.ts';

export type DataSourceFormTarget = { kind: 'create' } | { kind: 'edit'; id: string };

/**
 * Create or edit a data source. The connection can be tried before saving (the settings as they
 * are in the form; when editing, the stored password is lent unless a new one is typed or it is
 * being cleared). Saving an edit sends the stamp it was read with: a 409 says someone saved since.
 */
export function DataSourceForm({ target, onClose }: { target: DataSourceFormTarget | null; onClose(): void }) {
  const { t } = useTranslation('dataSources');
  const [form] = Form.useForm<DataSourceFormValues>();
  const editId = target?.kind === 'edit' ? target.id : null;
  const loaded = useDataSource(editId);
  const save = useSaveDataSource();
  const test = useTestDataSourceSettings();
  const [source, setSource] = useState<TDataSource | null>(null);
  const [outcome, setOutcome] = useState<ConnectionTestOutcome | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  // The kind before a change, to tell whether the port was that kind's default.
  const kind = useRef<TDataSourceKind>('postgres');
  const clearPassword = Form.useWatch('clearPassword', form) ?? false;
  const watchedKind = (Form.useWatch('kind', form) ?? 'postgres') as TDataSourceKind;
  const authKind = (Form.useWatch('authKind', form) ?? 'none') as DataSourceFormValues['authKind'];
  /** The server's members as the form's fields: an HTTP source's nest (auth.username, secret). */
  const fieldsOf = (err: ApiError) =>
    mapValidationErrors(err.validationErrors, watchedKind === 'http' ? { field: httpFormField } : { fields: FORM_FIELDS });

  const fill = (values: DataSourceFormValues, from: TDataSource | null) => {
    form.resetFields();
    form.setFieldsValue(values);
    kind.current = values.kind;
    setSource(from);
    setOutcome(null);
    setConflict(null);
  };

  useEffect(() => {
    if (target?.kind === 'create') fill(newFormValues(), null);
    // Another source's settings (and stamp) must not stand in while this one loads.
    if (target?.kind === 'edit') setSource(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target]);
  useEffect(() => {
    if (target?.kind === 'edit' && loaded.data?.id === target.id) fill(formValuesOf(loaded.data), loaded.data);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded.data, target]);

  const onValuesChange = (changed: Partial<DataSourceFormValues>, all: DataSourceFormValues) => {
    if (changed.kind && changed.kind !== kind.current) {
      form.setFieldValue('port', portAfterKindChange(all.port, kind.current, changed.kind));
      // The product's own database is read only.
      if (changed.kind === 'own') form.setFieldValue('readOnly', true);
      kind.current = changed.kind;
    }
    // A result no longer says anything about the settings now in the form.
    if (Object.keys(changed).some((f) => CONNECTION_FIELDS.includes(f) || HTTP_CONNECTION_FIELDS.includes(f) || f === 'clearPassword' || f === 'ssl')) setOutcome(null);
  };

  const tryConnection = async () => {
    const chosen = form.getFieldValue('kind') as TDataSourceKind;
    const fields = chosen === 'http' ? HTTP_CONNECTION_FIELDS : chosen === 'own' ? OWN_CONNECTION_FIELDS : CONNECTION_FIELDS;
    const valid = await validValues({ validateFields: () => form.validateFields(fields as (keyof DataSourceFormValues)[], { recursive: true }) });
    if (!valid) return;
    const input = settingsInput(form.getFieldsValue(true) as DataSourceFormValues);
    setOutcome(null);
    try {
      // The test needs a name (contract: the settings' shape) but uses none: an unnamed source is tried by its host.
      const result = await test.mutateAsync({ ...input, name: input.name || (input.kind === 'http' ? input.baseUrl : input.kind === 'own' ? t('kinds.own') : input.host), ...(editId ? { sourceId: editId } : {}) });
      setOutcome(result.ok ? result : { ...result, message: result.message ?? t('form.testFailed') });
    } catch (err) {
      if (err instanceof ApiError) setFieldErrors(form, fieldsOf(err).fields);
      setOutcome({ ok: false, version: null, elapsedMs: null, message: errorText(err) });
    }
  };

  const submit = async () => {
    const values = await validValues(form);
    if (!values || !target) return;
    const input = settingsInput({ ...form.getFieldsValue(true), ...values } as DataSourceFormValues);
    setConflict(null);
    try {
      if (editId) await save.mutateAsync({ id: editId, input: { ...input, concurrencyStamp: source?.concurrencyStamp ?? '' } });
      else await save.mutateAsync({ id: null, input });
      feedback.message?.success(editId ? t('form.saved') : t('form.created'));
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) setConflict(serverError(err).message);
      else if (err instanceof ApiError && err.status === 400 && watchedKind === 'http') {
        const mapped = fieldsOf(err);
        setFieldErrors(form, mapped.fields);
        if (mapped.general.length || !mapped.fields.length) feedback.message?.error(mapped.general[0] ?? err.message, 3);
      } else if (!(err instanceof ApiError && err.status === 400 && showFormErrors(form, err, FORM_FIELDS))) feedback.message?.error(errorText(err));
    }
  };

  const loading = Boolean(editId) && !source;
  return (
    <Modal
      open={Boolean(target)}
      title={editId ? t('form.editTitle', { name: source?.name ?? '' }) : t('form.createTitle')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('form.save')}
      cancelText={t('form.cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: loading, 'data-testid': 'data-source-save' } as ButtonProps}
      width={760}
      maskClosable={false}
      destroyOnHidden
    >
      {editId && loaded.isError ? (
        <Result status="error" title={t('form.loadFailed')} subTitle={errorText(loaded.error)} />
      ) : (
        <Spin spinning={loading}>
          {conflict && <Alert type="error" showIcon title={conflict} style={{ marginBottom: 12 }} data-testid="data-source-form-conflict" />}
          <Form form={form} layout="vertical" requiredMark onValuesChange={onValuesChange} data-testid="data-source-form">
            <DataSourceFields hasPassword={Boolean(source?.hasPassword)} clearPassword={clearPassword} kind={watchedKind} authKind={authKind} />
          </Form>
          <Flex vertical gap={8}>
            <div>
              <Button icon={<ApiOutlined />} loading={test.isPending} onClick={() => void tryConnection()} data-testid="data-source-form-test">
                {t('form.test')}
              </Button>
            </div>
            {outcome && <ConnectionTestResult outcome={outcome} />}
          </Flex>
        </Spin>
      )}
    </Modal>
  );
}
