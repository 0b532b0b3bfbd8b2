import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Col, Drawer, Form, Input, Result, Row, Space, Spin, Switch, Typography } from 'antd';
import { DICTIONARY_CODE_PATTERN, type TDictionary } from '@tessera/core/contracts/dictionaries';
import { P } from '@tessera/core/contracts/permissions';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { useAccess } from '../../../shared/components/Auth.tsx';
import { LocalizedTextInput, requireSomeText } from '../../../shared/components/LocalizedTextInput.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { downloadDictionaryExcel, useCreateDictionary, useDictionary, useUpdateDictionary } from '../api/dictionaries.ts';
import { checkItems, newItemKey, splitServerErrors, toEditable, toItemInput } from './dictionary-form.ts';
import { ImportItemsModal } from './ImportItemsModal.tsx';
import { normalizeItems, type EditableItem } from './item-tree.ts';
import { ItemsEditor } from './ItemsEditor.tsx';
import '../i18n.ts';
import { validValues } from '../../../shared/ui/form-values.ts';

interface HeaderForm {
  code: string;
  title: Record<string, string>;
  description: string;
  isTree: boolean;
}
const HEADER_FIELDS = ['code', 'title', 'description', 'isTree'];

export type DictionaryEditorTarget = { kind: 'create' } | { kind: 'edit'; id: string };

/** Create or edit a dictionary with all its items; one save sends the whole dictionary. */
export function DictionaryEditorDrawer({ target, onClose }: { target: DictionaryEditorTarget | null; onClose(): void }) {
  const { t } = useTranslation('dictionaries');
  const [form] = Form.useForm<HeaderForm>();
  const editId = target?.kind === 'edit' ? target.id : null;
  const loaded = useDictionary(editId);
  const create = useCreateDictionary();
  const update = useUpdateDictionary();
  const canWrite = useAccess(editId ? P.DictionariesUpdate : P.DictionariesCreate);
  const [items, setItems] = useState<EditableItem[]>([]);
  const [stamp, setStamp] = useState<string | undefined>();
  const [saved, setSaved] = useState<TDictionary | null>(null);
  // Set by the user's own edits only (not by filling the form), so opening and closing never asks.
  const [headerEdited, setHeaderEdited] = useState(false);
  const [baseline, setBaseline] = useState('');
  const [itemErrors, setItemErrors] = useState<Map<string, string[]>>(new Map());
  const [general, setGeneral] = useState<string[]>([]);
  const [importing, setImporting] = useState(false);
  const isTree = Form.useWatch('isTree', form) ?? false;

  const snapshot = (list: EditableItem[]) => JSON.stringify(list.map((i) => toItemInput(i, true)));

  const fill = (d: TDictionary) => {
    const values = { code: d.code, title: d.title, description: d.description, isTree: d.isTree };
    form.resetFields();
    form.setFieldsValue(values);
    const list = normalizeItems(toEditable(d), d.isTree).items;
    setItems(list);
    setStamp(d.concurrencyStamp);
    setSaved(d);
    setBaseline(snapshot(list));
    setHeaderEdited(false);
    setItemErrors(new Map());
    setGeneral([]);
  };

  useEffect(() => {
    if (!target) return;
    if (target.kind === 'create') {
      const values = { code: '', title: {}, description: '', isTree: false };
      form.resetFields();
      form.setFieldsValue(values);
      setItems([]);
      setStamp(undefined);
      setSaved(null);
      setBaseline(snapshot([]));
      setHeaderEdited(false);
      setItemErrors(new Map());
      setGeneral([]);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target]);
  useEffect(() => {
    if (target?.kind === 'edit' && loaded.data && loaded.data.id === target.id) fill(loaded.data);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded.data, target]);

  // Touched header fields, or items that differ from what was loaded.
  const dirty = useMemo(() => !!target && (headerEdited || snapshot(items) !== baseline), [headerEdited, items, baseline, target]);

  const close = () => {
    if (!dirty) return onClose();
    feedback.modal?.confirm({ title: t('common:confirmOperation'), content: t('editor.unsavedClose'), okText: t('common:ok'), cancelText: t('common:cancel'), onOk: onClose });
  };

  const submit = async () => {
    const values: HeaderForm | null = await validValues(form);
    if (!values) return;
    const ordered = normalizeItems(items, values.isTree).items;
    const problems = checkItems(ordered, t);
    setItemErrors(problems);
    setGeneral([]);
    if (problems.size) return;
    const input = {
      code: values.code.trim(),
      title: Object.fromEntries(Object.entries(values.title ?? {}).filter(([, v]) => v.trim())),
      description: values.description ?? '',
      isTree: values.isTree,
      items: ordered.map((i) => toItemInput(i, values.isTree)),
      ...(stamp ? { concurrencyStamp: stamp } : {}),
    };
    try {
      if (editId) await update.mutateAsync({ id: editId, input });
      else await create.mutateAsync(input);
      feedback.message?.success(t('editor.saved'));
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        setGeneral([t('editor.conflict')]);
        return;
      }
      const split = splitServerErrors(err, ordered);
      if (split.fields.size) form.setFields([...split.fields].filter(([f]) => HEADER_FIELDS.includes(f)).map(([name, errors]) => ({ name: name as keyof HeaderForm, errors })));
      setItemErrors(split.items);
      const rest = [...split.general, ...[...split.fields].filter(([f]) => !HEADER_FIELDS.includes(f)).flatMap(([, m]) => m)];
      if (!split.fields.size && !split.items.size && !rest.length) rest.push(err instanceof Error ? err.message : String(err));
      setGeneral(rest);
    }
  };

  const startImport = () => {
    if (!dirty) return setImporting(true);
    feedback.modal?.confirm({ title: t('common:confirmOperation'), content: t('editor.importDirty'), okText: t('common:ok'), cancelText: t('common:cancel'), onOk: () => setImporting(true) });
  };

  const exportItems = () => saved && downloadDictionaryExcel(saved.id, saved.code).catch((err: Error) => feedback.message?.error(err.message));

  const errorList = [...itemErrors].flatMap(([key, messages]) => {
    const row = normalizeItems(items, isTree).items.findIndex((i) => i.key === key) + 1;
    const code = items.find((i) => i.key === key)?.code;
    return messages.map((m) => `${code || t('items.row', { row })}: ${m}`);
  });

  return (
    <Drawer
      open={!!target}
      width={1080}
      title={editId ? t('editor.editTitle', { code: saved?.code ?? '' }) : t('editor.createTitle')}
      onClose={close}
      maskClosable={false}
      destroyOnHidden
      extra={
        <Space>
          {saved && (
            <>
              <Button icon={<DownloadOutlined />} onClick={() => void exportItems()}>
                {t('list.export')}
              </Button>
              {canWrite && (
                <Button icon={<UploadOutlined />} onClick={startImport}>
                  {t('import.button')}
                </Button>
              )}
            </>
          )}
          <Button onClick={close}>{t('common:cancel')}</Button>
          {canWrite && (
            <Button type="primary" loading={create.isPending || update.isPending} onClick={() => void submit()} disabled={!!editId && !saved}>
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
          <Form form={form} layout="vertical" requiredMark disabled={!canWrite} onValuesChange={() => setHeaderEdited(true)}>
            <Row gutter={16}>
              <Col span={8}>
                <Form.Item
                  name="code"
                  label={t('editor.code')}
                  extra={t('editor.codeHelp')}
                  rules={[
                    { required: true, whitespace: true, message: t('editor.codeRequired') },
                    { pattern: DICTIONARY_CODE_PATTERN, message: t('editor.codeInvalid') },
                  ]}
                >
                  <Input maxLength={64} autoComplete="off" />
                </Form.Item>
                <Form.Item name="isTree" label={t('editor.isTree')} valuePropName="checked" extra={t('editor.isTreeHelp')}>
                  <Switch />
                </Form.Item>
              </Col>
              <Col span={9}>
                <Form.Item name="title" label={t('editor.name')} required rules={[requireSomeText(t('editor.nameRequired'))]}>
                  <LocalizedTextInput maxLength={100} />
                </Form.Item>
              </Col>
              <Col span={7}>
                <Form.Item name="description" label={t('editor.description')}>
                  <Input.TextArea rows={4} maxLength={500} />
                </Form.Item>
              </Col>
            </Row>
          </Form>
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {t('items.title')} <Typography.Text type="secondary" style={{ fontSize: 13, fontWeight: 'normal' }}>{t('items.count', { count: items.length })}</Typography.Text>
          </Typography.Title>
          {(general.length > 0 || errorList.length > 0) && (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 8 }}
              title={errorList.length ? t('items.errors') : general[0]}
              description={
                errorList.length || general.length > 1 ? (
                  <ul style={{ margin: 0, paddingInlineStart: 18, maxHeight: 120, overflow: 'auto' }}>
                    {[...(errorList.length ? general : general.slice(1)), ...errorList].map((e, i) => (
                      <li key={i}>{e}</li>
                    ))}
                  </ul>
                ) : undefined
              }
            />
          )}
          <ItemsEditor items={items} isTree={isTree} onChange={setItems} errors={itemErrors} newKey={newItemKey} />
        </Spin>
      )}
      <ImportItemsModal dictionary={importing ? saved : null} onClose={() => setImporting(false)} onImported={fill} />
    </Drawer>
  );
}
