import { CopyOutlined, WarningOutlined } from '@ant-design/icons';
import type { TApiKeyCreated, TApiKeyCreateInput } from '@tessera/core/contracts/api-keys';
import { Alert, Button, DatePicker, Form, Input, Modal, Radio, Space, Spin, Tree } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../shared/clipboard.ts';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { showFormErrors } from '../../../shared/ui/form-errors.ts';
import { useCreateApiKey, useMyKeyCodes } from '../api/api-keys.ts';
import '../i18n.ts';

type Expiry = '30' | '90' | '365' | 'never' | 'custom';
interface Values {
  name: string;
  expiry: Expiry;
  customDate?: Dayjs;
  scope: 'all' | 'some';
  codes?: string[];
}

const GROUP = 'group:';

function expiresAt(values: Values): string | null {
  if (values.expiry === 'never') return null;
  if (values.expiry === 'custom') return values.customDate!.endOf('day').toISOString();
  return dayjs().add(Number(values.expiry), 'day').toISOString();
}

/** Creates a key (name, expiry, all or some of my codes), then shows it once to copy. */
export function CreateApiKeyModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('apiKeys');
  const [form] = Form.useForm<Values>();
  const create = useCreateApiKey();
  const [created, setCreated] = useState<TApiKeyCreated | null>(null);
  const scope = Form.useWatch('scope', form);
  const expiry = Form.useWatch('expiry', form);
  const codes = useMyKeyCodes(open && scope === 'some');
  const [codeSearch, setCodeSearch] = useState('');
  // The groups and codes matching the search (a group's name matching keeps all its codes).
  const treeData = useMemo(() => {
    const text = codeSearch.trim().toLowerCase();
    const has = (s: string) => !text || s.toLowerCase().includes(text);
    return (codes.data?.groups ?? [])
      .map((g) => ({
        key: GROUP + g.name,
        title: g.displayName,
        children: g.permissions.filter((p) => has(g.displayName) || has(p.displayName) || has(p.name)).map((p) => ({ key: p.name, title: `${p.displayName} (${p.name})` })),
      }))
      .filter((g) => g.children.length > 0);
  }, [codes.data, codeSearch]);
  const shownCodes = useMemo(() => new Set(treeData.flatMap((g) => g.children.map((c) => c.key))), [treeData]);

  const close = () => {
    form.resetFields();
    setCodeSearch('');
    setCreated(null);
    onClose();
  };

  const submit = async () => {
    // The form shows what is missing; nothing to report beyond that.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const input: TApiKeyCreateInput = { name: values.name.trim(), expiresAt: expiresAt(values), codes: values.scope === 'some' ? values.codes! : null };
    try {
      setCreated(await create.mutateAsync(input));
    } catch (err) {
      if (!showFormErrors(form, err, ['name', 'expiresAt', 'codes'])) throw err;
    }
  };

  if (created) {
    const copy = () => void copyText(created.key).then((ok) => (ok ? feedback.message?.success(t('created.copied')) : feedback.message?.warning(t('common:copyFailed'))));
    return (
      <Modal
        open={open}
        title={t('created.title')}
        closable={false}
        maskClosable={false}
        keyboard={false}
        footer={
          <Button type="primary" onClick={close} data-testid="api-key-done">
            {t('created.done')}
          </Button>
        }
      >
        <Alert type="warning" showIcon icon={<WarningOutlined />} title={t('created.warning')} style={{ marginBottom: 12 }} />
        <Space.Compact style={{ width: '100%' }}>
          <Input readOnly value={created.key} aria-label={created.apiKey.name} data-testid="api-key-secret" onFocus={(e) => e.target.select()} style={{ fontFamily: 'monospace' }} />
          <Button icon={<CopyOutlined />} onClick={copy}>
            {t('created.copy')}
          </Button>
        </Space.Compact>
      </Modal>
    );
  }

  return (
    <Modal open={open} title={t('form.title')} okText={t('form.create')} cancelText={t('common:cancel')} confirmLoading={create.isPending} onOk={submit} onCancel={close} forceRender>
      <Form form={form} layout="vertical" initialValues={{ expiry: '90', scope: 'all' }} onFinish={submit}>
        <Form.Item name="name" label={t('form.name')} rules={[{ required: true, whitespace: true, message: t('form.nameRequired') }]}>
          <Input maxLength={64} placeholder={t('form.namePlaceholder')} autoFocus />
        </Form.Item>
        <Form.Item name="expiry" label={t('form.expiry')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: '30', label: t('form.days30') },
              { value: '90', label: t('form.days90') },
              { value: '365', label: t('form.year1') },
              { value: 'never', label: t('form.noExpiry') },
              { value: 'custom', label: t('form.custom') },
            ]}
          />
        </Form.Item>
        {expiry === 'custom' && (
          <Form.Item name="customDate" label={t('form.custom')} rules={[{ required: true, message: t('form.customRequired') }]}>
            <DatePicker disabledDate={(d) => d.isBefore(dayjs().add(1, 'day'), 'day') || d.isAfter(dayjs().add(10, 'year'))} />
          </Form.Item>
        )}
        <Form.Item name="scope" label={t('form.scope')}>
          <Radio.Group>
            <Space orientation="vertical">
              <Radio value="all">{t('form.scopeAll')}</Radio>
              <Radio value="some">{t('form.scopeSome')}</Radio>
            </Space>
          </Radio.Group>
        </Form.Item>
        {scope === 'some' && (
          <>
            <Input.Search allowClear placeholder={t('form.codesSearch')} aria-label={t('form.codesSearch')} value={codeSearch} onChange={(e) => setCodeSearch(e.target.value)} style={{ marginBottom: 8 }} />
            <Form.Item
              name="codes"
              extra={t('form.codesHelp')}
              valuePropName="checkedKeys"
              trigger="onCheck"
              // The tree reports only the codes it shows: those hidden by the search stay as they were.
              getValueFromEvent={(checked: string[] | { checked: string[] }) => [
                ...((form.getFieldValue('codes') as string[] | undefined) ?? []).filter((k) => !shownCodes.has(k)),
                ...(Array.isArray(checked) ? checked : checked.checked).filter((k) => !k.startsWith(GROUP)),
              ]}
              rules={[{ required: true, type: 'array', min: 1, message: t('form.codesRequired') }]}
            >
              {codes.isLoading ? (
                <Spin />
              ) : (
                <Tree
                  checkable
                  selectable={false}
                  treeData={treeData}
                  height={280}
                  // Searching opens the groups that match; otherwise they start closed.
                  {...(codeSearch.trim() ? { expandedKeys: treeData.map((g) => g.key) } : {})}
                  style={{ border: '1px solid rgba(5,5,5,0.06)', borderRadius: 6, padding: 4 }}
                />
              )}
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
