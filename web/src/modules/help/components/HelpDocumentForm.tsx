import { App, Button, Col, Form, Input, InputNumber, Row, Space, Tabs, TreeSelect } from 'antd';
import type { THelpDocument, THelpDocumentInput, THelpDocumentNode } from '@tessera/core/contracts/help';
import { HELP_KEY_PATTERN } from '@tessera/core/contracts/help';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { mapValidationErrors, setFieldErrors } from '../../../shared/api/validation-errors.ts';
import { helpTitle } from '../../../shared/components/HelpLink.tsx';
import { useCreateHelpDocument, useUpdateHelpDocument } from '../api/help-documents.ts';
import { MarkdownEditor } from './MarkdownEditor.tsx';
import { validValues } from '../../../shared/ui/form-values.ts';

/** The title languages the form edits; other languages of a stored title are kept as they are. */
const TITLE_CULTURES = ['zh-CN', 'en-US'] as const;
/** Body languages the form edits besides the default (Simplified Chinese) body; others are kept. */
const BODY_CULTURES = ['en-US'] as const;

interface FormValues {
  key: string;
  titles: Record<string, string>;
  parentId?: string | null;
  order?: number | null;
  markdown: string;
  translations: Record<string, string>;
}

export type HelpFormMode = { kind: 'create'; parentId: string | null; key?: string } | { kind: 'edit'; doc: THelpDocument };

interface Props {
  mode: HelpFormMode;
  roots: THelpDocumentNode[];
  onSaved(doc: THelpDocument): void;
  onCancel(): void;
  onDirtyChange(dirty: boolean): void;
}

/** Sub-tree ids of a document (it cannot move under itself or its descendants). */
function subtreeIds(roots: THelpDocumentNode[], id: string): Set<string> {
  const out = new Set<string>();
  const walk = (list: THelpDocumentNode[], inside: boolean) => {
    for (const n of list) {
      const now = inside || n.id === id;
      if (now) out.add(n.id);
      walk(n.children, now);
    }
  };
  walk(roots, false);
  return out;
}

/** Creates or edits a help document: key, title per language, parent, order and the Markdown with preview. */
export function HelpDocumentForm({ mode, roots, onSaved, onCancel, onDirtyChange }: Props) {
  const { t, i18n } = useTranslation('help');
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const create = useCreateHelpDocument();
  const update = useUpdateHelpDocument();
  const doc = mode.kind === 'edit' ? mode.doc : null;

  const initial = useMemo<FormValues>(() => {
    if (!doc) return { key: mode.kind === 'create' ? (mode.key ?? '') : '', titles: {}, parentId: mode.kind === 'create' ? mode.parentId : null, order: null, markdown: '', translations: {} };
    const titles: Record<string, string> = typeof doc.title === 'string' ? { [i18n.language === 'en-US' ? 'en-US' : 'zh-CN']: doc.title } : { ...doc.title };
    return { key: doc.key, titles, parentId: doc.parentId, order: doc.order, markdown: doc.markdown, translations: { ...doc.translations } };
    // The language at opening: switching it later must neither reset nor dirty the form (issue 12, defect 11).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [doc, mode]);

  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(initial);
    onDirtyChange(false);
    // Reset only when another document (or a new form) opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [initial]);

  const blocked = useMemo(() => (doc ? subtreeIds(roots, doc.id) : new Set<string>()), [roots, doc]);
  const parentOptions = useMemo(() => {
    const map = (list: THelpDocumentNode[]): object[] =>
      list.map((n) => ({ value: n.id, title: helpTitle(n.title, i18n.language) || n.key, disabled: blocked.has(n.id), children: map(n.children) }));
    return [{ value: '', title: t('topLevel') }, ...map(roots)];
  }, [roots, blocked, i18n.language, t]);

  const save = async () => {
    const values = await validValues(form);
    if (!values) return;
    const titles: Record<string, string> = {};
    for (const [culture, text] of Object.entries({ ...(typeof doc?.title === 'object' ? doc.title : {}), ...values.titles })) {
      if (text?.trim()) titles[culture] = text.trim();
    }
    const input: THelpDocumentInput = {
      key: values.key.trim(),
      title: titles,
      parentId: values.parentId || null,
      ...(values.order !== null && values.order !== undefined ? { order: values.order } : {}),
      markdown: values.markdown ?? '',
      // The bodies this form edits; other languages' bodies are kept as stored.
      translations: { ...(doc?.translations ?? {}), ...Object.fromEntries(BODY_CULTURES.map((c) => [c, values.translations?.[c] ?? ''])) },
      ...(doc ? { concurrencyStamp: doc.concurrencyStamp } : {}),
    };
    try {
      const saved = doc ? await update.mutateAsync({ id: doc.id, input }) : await create.mutateAsync(input);
      onDirtyChange(false);
      message.success(t('saved'));
      onSaved(saved);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        message.error(t('conflict'));
        return;
      }
      if (err instanceof ApiError && err.status === 400 && err.validationErrors.length) {
        // The server's `title` is the form's `titles`, one input per culture: its messages go under the first.
        const { fields } = mapValidationErrors(err.validationErrors, {
          field: (path) => (path[0] === 'title' ? ['titles', TITLE_CULTURES[0]] : path[0] === 'translations' ? path.slice(0, 2) : ['key', 'parentId', 'order', 'markdown'].includes(String(path[0])) ? path.slice(0, 1) : undefined),
        });
        if (fields.length) {
          setFieldErrors(form, fields);
          return;
        }
      }
      message.error((err as Error).message);
    }
  };

  const saving = create.isPending || update.isPending;
  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      onValuesChange={() => onDirtyChange(true)}
      data-testid="help-form"
    >
      <Row gutter={12}>
        <Col xs={24} md={8}>
          <Form.Item
            name="key"
            label={t('key')}
            tooltip={t('keyHelp')}
            rules={[
              { required: true, message: t('keyInvalid') },
              { pattern: HELP_KEY_PATTERN, message: t('keyInvalid') },
            ]}
          >
            <Input maxLength={100} placeholder="users" autoComplete="off" />
          </Form.Item>
        </Col>
        {TITLE_CULTURES.map((culture, i) => (
          <Col xs={24} md={8} key={culture}>
            <Form.Item
              name={['titles', culture]}
              label={`${t('docTitle')} (${culture})`}
              dependencies={TITLE_CULTURES.filter((c) => c !== culture).map((c) => ['titles', c])}
              rules={
                i === 0
                  ? [
                      ({ getFieldValue }) => ({
                        validator: () =>
                          TITLE_CULTURES.some((c) => String(getFieldValue(['titles', c]) ?? '').trim())
                            ? Promise.resolve()
                            : Promise.reject(new Error(t('titleRequired'))),
                      }),
                    ]
                  : []
              }
            >
              <Input maxLength={200} lang={culture} />
            </Form.Item>
          </Col>
        ))}
        <Col xs={16} md={16}>
          <Form.Item name="parentId" label={t('parent')} normalize={(v: string) => v || null} getValueProps={(v: string | null) => ({ value: v ?? '' })}>
            <TreeSelect treeData={parentOptions} treeDefaultExpandAll showSearch={{ treeNodeFilterProp: 'title' }} popupMatchSelectWidth={false} />
          </Form.Item>
        </Col>
        <Col xs={8} md={8}>
          <Form.Item name="order" label={t('order')}>
            <InputNumber min={0} max={100000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      {/* One body per language: the default (Simplified Chinese) and its translations; a reader sees the body in their language. */}
      <Tabs
        size="small"
        data-testid="help-body-tabs"
        items={[
          {
            key: 'default',
            label: t('bodyDefault'),
            forceRender: true,
            children: (
              <Form.Item name="markdown" label={t('markdown')} style={{ marginBottom: 12 }}>
                <MarkdownEditor />
              </Form.Item>
            ),
          },
          ...BODY_CULTURES.map((culture) => ({
            key: culture,
            label: t(`bodyIn.${culture}`),
            forceRender: true,
            children: (
              <Form.Item name={['translations', culture]} label={t('markdown')} extra={t('bodyTranslationHelp')} style={{ marginBottom: 12 }}>
                <MarkdownEditor testIdPrefix={`help-${culture}`} />
              </Form.Item>
            ),
          })),
        ]}
      />
      <Space>
        <Button type="primary" loading={saving} onClick={() => void save()} data-testid="help-save">
          {t('save')}
        </Button>
        <Button onClick={onCancel}>{t('cancel')}</Button>
      </Space>
    </Form>
  );
}
