import { Alert, Checkbox, Col, Form, Input, InputNumber, Modal, Row, Select, Typography, theme, type ButtonProps } from 'antd';
import { DATA_SOURCE_LIMITS, type TDataSourceMethod, type THttpRequest } from '@tessera/core/contracts/data-sources';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { mapValidationErrors, setFieldErrors } from '../../../shared/api/validation-errors.ts';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { validValues } from '../../../shared/ui/form-values.ts';
import { useSaveDataSourceMethod } from '../api/data-sources.ts';
import { serverError } from '../api/server-error.ts';
import {
  isValidDefault,
  METHOD_CODE_PATTERN,
  METHOD_PARAMETER_TYPES,
  methodErrorField,
  methodInput,
  withMethodParameterType,
  type MethodFormValues,
  type MethodParameterFields,
} from './method-input.ts';
import '../i18n.ts';

export interface MethodFormTarget {
  /** The open query being saved again (PUT with its stamp); null saves a new one. */
  editing: TDataSourceMethod | null;
  values: MethodFormValues;
  /** The editor's SQL and its parameter names when the form opened: what is saved. */
  sql: string;
  names: string[];
  /** An HTTP source's request instead of SQL. */
  request?: THttpRequest;
}

interface MethodFormProps {
  sourceId: string;
  target: MethodFormTarget | null;
  onSaved(method: TDataSourceMethod): void;
  onClose(): void;
}

interface Problem {
  title: string;
  messages: string[];
}

/**
 * Saves the workbench's SQL as a query of the source: code, name, cache and one row per `:name`
 * (type, default, required). The server runs it to read its columns, so an SQL that does not run is
 * refused here (400, shown in the alert); a code already used is put on its field.
 */
export function MethodForm({ sourceId, target, onSaved, onClose }: MethodFormProps) {
  const { t } = useTranslation('dataSources');
  const { token } = theme.useToken();
  const [form] = Form.useForm<MethodFormValues>();
  const save = useSaveDataSourceMethod();
  const [problem, setProblem] = useState<Problem | null>(null);
  // The watch gives registered fields only (a parameter's name is not one), and nothing before the
  // modal's form has mounted: the opening values fill in.
  const opening = target?.values.parameters ?? [];
  const watched = (Form.useWatch('parameters', form) ?? []) as Partial<MethodParameterFields>[];
  const parameters = opening.map((p, i) => ({ ...p, ...watched[i], name: p.name }) as MethodParameterFields);

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue(target.values);
    setProblem(null);
  }, [target, form]);

  const submit = async () => {
    if (!target || !(await validValues(form))) return;
    const built = methodInput(form.getFieldsValue(true) as MethodFormValues, target.sql, target.names);
    if (built.invalid.length) return;
    const input = target.request ? { ...built.input, sql: '', request: target.request } : built.input;
    setProblem(null);
    try {
      const saved = target.editing
        ? await save.mutateAsync({ sourceId, methodId: target.editing.id, input: { ...input, concurrencyStamp: target.editing.concurrencyStamp } })
        : await save.mutateAsync({ sourceId, methodId: null, input });
      feedback.message?.success(t('methods.saved', { name: saved.name }));
      onSaved(saved);
    } catch (err) {
      const e = serverError(err);
      // 409: someone saved the query since it was opened; their version wins until it is opened again.
      if (err instanceof ApiError && err.status === 409) return setProblem({ title: e.message, messages: [] });
      if (err instanceof ApiError && err.status === 400 && err.validationErrors.length) {
        const mapped = mapValidationErrors(err.validationErrors, { field: methodErrorField });
        setFieldErrors(form, mapped.fields);
        if (mapped.general.length) setProblem({ title: e.kind === 'invalid' ? t('methods.saveFailed') : t(`errors.${e.kind}`), messages: mapped.general });
        return;
      }
      setProblem({ title: t(`errors.${e.kind}`), messages: [e.message, ...e.details] });
    }
  };

  const mono = { fontFamily: token.fontFamilyCode };
  return (
    <Modal
      open={Boolean(target)}
      title={target?.editing ? t('methods.editTitle', { name: target.editing.name }) : t('methods.createTitle')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('methods.save')}
      cancelText={t('methods.cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'data-source-method-submit' } as ButtonProps}
      width={720}
      maskClosable={false}
      destroyOnHidden
    >
      {problem && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title={problem.title}
          description={problem.messages.length ? <div style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{problem.messages.join('\n')}</div> : undefined}
          data-testid="data-source-method-form-error"
        />
      )}
      {/* The modal's content mounts after this component's effects on opening: the values go in as initial values. */}
      <Form form={form} initialValues={target?.values} layout="vertical" requiredMark data-testid="data-source-method-form">
        <Row gutter={16}>
          <Col xs={24} md={10}>
            <Form.Item
              name="code"
              label={t('methods.code')}
              extra={t('methods.codeHelp')}
              rules={[
                { required: true, whitespace: true, message: t('methods.codeRequired') },
                { pattern: METHOD_CODE_PATTERN, message: t('methods.codeInvalid') },
              ]}
            >
              <Input maxLength={DATA_SOURCE_LIMITS.methodCode} autoComplete="off" style={mono} data-testid="data-source-method-code" />
            </Form.Item>
          </Col>
          <Col xs={24} md={14}>
            <Form.Item name="name" label={t('methods.name')} rules={[{ required: true, whitespace: true, message: t('methods.nameRequired') }]}>
              <Input maxLength={DATA_SOURCE_LIMITS.name} data-testid="data-source-method-name" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="description" label={t('methods.description')}>
          <Input.TextArea maxLength={DATA_SOURCE_LIMITS.description} autoSize={{ minRows: 1, maxRows: 4 }} data-testid="data-source-method-description" />
        </Form.Item>
        <Form.Item name="cacheSeconds" label={t('methods.cacheSeconds')} extra={t('methods.cacheHelp')}>
          <InputNumber
            min={DATA_SOURCE_LIMITS.cacheSeconds.min}
            max={DATA_SOURCE_LIMITS.cacheSeconds.max}
            precision={0}
            style={{ width: 160 }}
            data-testid="data-source-method-cache"
          />
        </Form.Item>
        <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
          {t('methods.parameters')}
        </Typography.Text>
        {parameters.length === 0 && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('methods.noParameters')}
          </Typography.Text>
        )}
        {parameters.length > 0 && (
          <Row gutter={8} style={{ marginBottom: 4 }}>
            <Col span={6}><Typography.Text type="secondary">{t('methods.paramName')}</Typography.Text></Col>
            <Col span={5}><Typography.Text type="secondary">{t('methods.paramType')}</Typography.Text></Col>
            <Col span={9}><Typography.Text type="secondary">{t('methods.paramDefault')}</Typography.Text></Col>
            <Col span={4}><Typography.Text type="secondary">{t('methods.paramRequired')}</Typography.Text></Col>
          </Row>
        )}
        <Form.List name="parameters">
          {(fields) =>
            fields.map((field) => {
              const p = parameters[field.name];
              if (!p) return null;
              return (
                <Row key={field.key} gutter={8} align="top">
                  <Col span={6} style={{ paddingTop: 5 }}>
                    <Typography.Text code ellipsis>:{p.name}</Typography.Text>
                  </Col>
                  <Col span={5}>
                    <Form.Item name={[field.name, 'type']}>
                      <Select
                        aria-label={`${t('methods.paramType')} :${p.name}`}
                        data-testid={`data-source-method-param-type-${p.name}`}
                        options={METHOD_PARAMETER_TYPES.map((type) => ({ value: type, label: t(`workbench.types.${type}`) }))}
                        // The store already holds the new type; `p` is the row as it was.
                        onChange={(type: MethodParameterFields['type']) => form.setFieldValue(['parameters', field.name, 'defaultValue'], withMethodParameterType(p, type).defaultValue)}
                      />
                    </Form.Item>
                  </Col>
                  <Col span={9}>
                    <Form.Item
                      name={[field.name, 'defaultValue']}
                      dependencies={[['parameters', field.name, 'type']]}
                      rules={[
                        {
                          // The type as it is now (a change of type revalidates before this row renders again).
                          validator: async (_, value: string | undefined) =>
                            isValidDefault(form.getFieldValue(['parameters', field.name, 'type']) as MethodParameterFields['type'], value ?? '') ? undefined : Promise.reject(new Error(t('methods.numberInvalid'))),
                        },
                      ]}
                    >
                      {p.type === 'boolean' ? (
                        <Select
                          aria-label={`${t('methods.paramDefault')} :${p.name}`}
                          data-testid={`data-source-method-param-default-${p.name}`}
                          options={[
                            { value: 'true', label: 'true' },
                            { value: 'false', label: 'false' },
                          ]}
                        />
                      ) : (
                        <Input
                          aria-label={`${t('methods.paramDefault')} :${p.name}`}
                          data-testid={`data-source-method-param-default-${p.name}`}
                          inputMode={p.type === 'number' ? 'decimal' : undefined}
                          placeholder={p.type === 'number' ? t('methods.defaultNull') : undefined}
                          maxLength={DATA_SOURCE_LIMITS.parameterText}
                        />
                      )}
                    </Form.Item>
                  </Col>
                  <Col span={4} style={{ paddingTop: 5 }}>
                    <Form.Item name={[field.name, 'required']} valuePropName="checked" noStyle>
                      <Checkbox aria-label={`${t('methods.paramRequired')} :${p.name}`} data-testid={`data-source-method-param-required-${p.name}`} />
                    </Form.Item>
                  </Col>
                </Row>
              );
            })
          }
        </Form.List>
      </Form>
    </Modal>
  );
}
