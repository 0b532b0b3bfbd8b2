import { Alert, Button, Card, Col, Drawer, Form, Input, Result, Row, Select, Space, Spin, Tag, Typography } from 'antd';
import type { TDocumentNumberRule, TDocumentNumberRuleInput, TPreviewDocumentNumbersInput } from '@tessera/core/contracts/document-numbers';
import { RULE_CODE_PATTERN } from '@tessera/core/contracts/document-numbers';
import { RESET_PERIODS, type TDocumentNumberSegment, type TResetPeriod } from '@tessera/core/document-number-format';
import { P } from '@tessera/core/contracts/permissions';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '../../../shared/api/client.ts';
import { mapValidationErrors, setFieldErrors } from '../../../shared/api/validation-errors.ts';
import { useAccess } from '../../../shared/components/Auth.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useCreateRule, useDocumentNumberRule, usePreviewDocumentNumbers, useUpdateRule } from '../api/document-numbers.ts';
import { newSegment, SegmentsEditor } from './SegmentsEditor.tsx';
import '../i18n.ts';
import { validValues } from '../../../shared/ui/form-values.ts';

interface RuleForm {
  code: string;
  name: string;
  description: string;
  resetPeriod: TResetPeriod;
  timeZone: string | null;
  segments: TDocumentNumberSegment[];
}
const FIELDS = ['code', 'name', 'description', 'resetPeriod', 'timeZone', 'segments'];

const NEW_RULE: RuleForm = {
  code: '',
  name: '',
  description: '',
  resetPeriod: 'daily',
  timeZone: null,
  segments: [{ type: 'text', value: 'NO' }, newSegment('date'), { type: 'text', value: '-' }, newSegment('serial')],
};

const timeZones = (): string[] => {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return [...new Set(['Asia/Shanghai', 'UTC', ...supported])];
};

export type RuleEditorTarget = { kind: 'create' } | { kind: 'edit'; id: string };

/** Create or edit a rule: segments, reset period, time zone, with a live preview of the next three numbers. */
export function RuleEditorDrawer({ target, onClose }: { target: RuleEditorTarget | null; onClose(): void }) {
  const { t } = useTranslation('documentNumbers');
  const [form] = Form.useForm<RuleForm>();
  const editId = target?.kind === 'edit' ? target.id : null;
  const loaded = useDocumentNumberRule(editId);
  const create = useCreateRule();
  const update = useUpdateRule();
  const canWrite = useAccess(editId ? P.DocumentNumbersUpdate : P.DocumentNumbersCreate);
  const [rule, setRule] = useState<TDocumentNumberRule | null>(null);
  const [edited, setEdited] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const values = Form.useWatch([], form) as Partial<RuleForm> | undefined;
  const zones = useMemo(timeZones, []);
  const fixed = !!rule?.hasIssuedNumbers;

  const fill = (v: RuleForm) => {
    form.resetFields();
    form.setFieldsValue(v);
    setEdited(false);
    setProblems([]);
  };
  useEffect(() => {
    if (target?.kind === 'create') {
      setRule(null);
      fill(NEW_RULE);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target]);
  useEffect(() => {
    const r = loaded.data;
    if (target?.kind !== 'edit' || !r || r.id !== target.id) return;
    setRule(r);
    fill({ code: r.code, name: r.name, description: r.description, resetPeriod: r.resetPeriod, timeZone: r.timeZone, segments: r.segments });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded.data, target]);

  // The preview follows the form, 300 ms after the last change.
  const [previewInput, setPreviewInput] = useState<TPreviewDocumentNumbersInput | null>(null);
  const formatKey = JSON.stringify([values?.resetPeriod, values?.timeZone, values?.segments]);
  useEffect(() => {
    if (!target || !values?.resetPeriod || !values.segments?.length) return setPreviewInput(null);
    const timer = setTimeout(
      () =>
        setPreviewInput({
          rule: { resetPeriod: values.resetPeriod!, timeZone: values.timeZone || null, segments: values.segments! },
          ...(editId ? { ruleId: editId } : {}),
          count: 3,
        }),
      300,
    );
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [formatKey, editId, target]);
  const preview = usePreviewDocumentNumbers(previewInput);
  const previewError = preview.error ? errorText(preview.error) : null;

  // Set by the user's edits only (onValuesChange), not by filling the form.
  const dirty = !!target && edited;
  const close = () => {
    if (!dirty) return onClose();
    feedback.modal?.confirm({ title: t('common:confirmOperation'), content: t('editor.unsavedClose'), okText: t('common:ok'), cancelText: t('common:cancel'), onOk: onClose });
  };

  const submit = async () => {
    const v: RuleForm | null = await validValues(form);
    if (!v) return;
    const serials = (v.segments ?? []).filter((s) => s.type === 'serial').length;
    if (serials !== 1) return setProblems([t('editor.serialNeeded')]);
    setProblems([]);
    const input: TDocumentNumberRuleInput = {
      code: v.code.trim(),
      name: v.name.trim(),
      description: v.description ?? '',
      resetPeriod: v.resetPeriod,
      timeZone: v.timeZone || null,
      segments: v.segments,
      ...(rule ? { concurrencyStamp: rule.concurrencyStamp } : {}),
    };
    try {
      if (editId) await update.mutateAsync({ id: editId, input });
      else await create.mutateAsync(input);
      feedback.message?.success(t('editor.saved'));
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) return setProblems([t('editor.conflict')]);
      if (err instanceof ApiError && err.status === 400 && err.validationErrors.length) {
        // Segment errors are listed above the segments, not at a field.
        const { fields, general } = mapValidationErrors(err.validationErrors, { fields: FIELDS.filter((f) => f !== 'segments') });
        setFieldErrors(form, fields);
        return setProblems(general);
      }
      setProblems([err instanceof Error ? err.message : String(err)]);
    }
  };

  const hasField = (values?.segments ?? []).some((s) => s?.type === 'field');

  return (
    <Drawer
      open={!!target}
      width={980}
      title={editId ? t('editor.editTitle', { code: rule?.code ?? '' }) : t('editor.createTitle')}
      onClose={close}
      maskClosable={false}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={close}>{t('common:cancel')}</Button>
          {canWrite && (
            <Button type="primary" loading={create.isPending || update.isPending} disabled={!!editId && !rule} onClick={() => void submit()}>
              {t('common:save')}
            </Button>
          )}
        </Space>
      }
    >
      {editId && loaded.isError ? (
        <Result status="error" title={t('editor.loadFailed')} subTitle={loaded.error instanceof Error ? loaded.error.message : undefined} />
      ) : (
        <Spin spinning={!!editId && loaded.isLoading}>
          <Card size="small" style={{ marginBottom: 16, background: 'var(--ant-color-fill-quaternary)' }} data-testid="number-preview">
            <Typography.Text strong>{t('editor.preview')}</Typography.Text>
            <div style={{ marginTop: 8, minHeight: 32 }}>
              {previewError ? (
                <Typography.Text type="danger" data-testid="preview-error">
                  {previewError}
                </Typography.Text>
              ) : (
                <Space wrap>
                  {(preview.data?.numbers ?? []).map((n, i) => (
                    <Tag key={i} color="green" style={{ fontSize: 15, padding: '4px 10px', fontFamily: 'monospace' }} data-testid="preview-number">
                      {n}
                    </Tag>
                  ))}
                  {preview.isFetching && <Spin size="small" />}
                </Space>
              )}
            </div>
            {preview.data && !previewError && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('editor.previewPeriod', { period: preview.data.periodKey })}
                {editId ? ` · ${t('editor.previewContinues')}` : ''}
                {hasField ? ` · ${t('editor.previewFields')}` : ''}
              </Typography.Text>
            )}
          </Card>
          {fixed && <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('editor.fixedAfterIssue')} />}
          {problems.length > 0 && (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 16 }}
              title={problems[0]}
              description={problems.length > 1 ? <ul style={{ margin: 0, paddingInlineStart: 18 }}>{problems.slice(1).map((p, i) => <li key={i}>{p}</li>)}</ul> : undefined}
            />
          )}
          <Form form={form} layout="vertical" disabled={!canWrite} initialValues={NEW_RULE} onValuesChange={() => setEdited(true)}>
            <Row gutter={16}>
              <Col span={8}>
                <Form.Item
                  name="code"
                  label={t('editor.code')}
                  extra={t('editor.codeHelp')}
                  rules={[
                    { required: true, whitespace: true, message: t('editor.codeRequired') },
                    { pattern: RULE_CODE_PATTERN, message: t('editor.codeInvalid') },
                  ]}
                >
                  <Input maxLength={64} autoComplete="off" />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item name="name" label={t('editor.name')} rules={[{ required: true, whitespace: true, message: t('editor.nameRequired') }]}>
                  <Input maxLength={100} />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item name="description" label={t('editor.description')}>
                  <Input maxLength={500} />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item name="resetPeriod" label={t('editor.resetPeriod')} extra={t('editor.resetHelp')}>
                  <Select disabled={fixed} options={RESET_PERIODS.map((p) => ({ value: p, label: t(`period.${p}`) }))} data-testid="reset-period" />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item name="timeZone" label={t('editor.timeZone')} extra={t('editor.timeZoneHelp')}>
                  <Select allowClear showSearch placeholder={t('editor.serverZone')} options={zones.map((z) => ({ value: z, label: z }))} />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item label={t('editor.segments')} extra={t('editor.segmentsHelp')} required>
              <SegmentsEditor serialFixed={fixed} />
            </Form.Item>
          </Form>
        </Spin>
      )}
    </Drawer>
  );
}
