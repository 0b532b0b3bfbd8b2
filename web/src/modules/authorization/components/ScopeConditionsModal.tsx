import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Input, Modal, Select, Table, Typography } from 'antd';
import type { TScopeFilterCondition } from '@tessera/core/contracts/authorization';
import { FILTER_OPERATORS, findFilterOperator } from '@tessera/core/filters/operators';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../i18n.ts';

/** Operators come from the one filter table shared with the business-data module. */
const operatorOf = (m: unknown) => findFilterOperator(m) ?? FILTER_OPERATORS[0]!;
/** The value as typed: several values (in, between) are separated by commas. */
const valueText = (v: unknown) => (Array.isArray(v) ? v.join(', ') : v === null || v === undefined ? '' : String(v));
function toValue(text: string, method: unknown): TScopeFilterCondition['value'] {
  const arity = operatorOf(method).arity;
  if (arity === 'none' || arity === 'shortcut') return null;
  if (arity === 'list' || arity === 'two') return text.split(/[,，]/).map((s) => s.trim()).filter(Boolean);
  return text;
}

const blank = (): TScopeFilterCondition => ({ key: '', judgmentMethod: 'eq', value: '', leftBracket: '', rightBracket: '', linkCondition: 'and' });

/** Edits the flat condition list of a custom scope: brackets, field code, operator, value, and/or. */
export function ScopeConditionsModal({
  open,
  value,
  onOk,
  onCancel,
}: {
  open: boolean;
  value: TScopeFilterCondition[];
  onOk(next: TScopeFilterCondition[]): void;
  onCancel(): void;
}) {
  const { t, i18n } = useTranslation('authorization');
  const [rows, setRows] = useState<TScopeFilterCondition[]>([]);
  // Values are edited as text and typed per operator on OK.
  const [texts, setTexts] = useState<string[]>([]);
  useEffect(() => {
    if (!open) return;
    const initial = value.length ? value.map((c) => ({ ...c })) : [blank()];
    setRows(initial);
    setTexts(initial.map((c) => valueText(c.value)));
  }, [open, value]);
  const set = (i: number, patch: Partial<TScopeFilterCondition>) => setRows((r) => r.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const depth = rows.reduce((d, c) => d + (c.leftBracket?.length ?? 0) - (c.rightBracket?.length ?? 0), 0);
  const incomplete = rows.some((c) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(c.key));
  return (
    <Modal
      open={open}
      title={t('scopes.conditionsTitle')}
      width={920}
      onCancel={onCancel}
      okButtonProps={{ disabled: rows.length === 0 || depth !== 0 || incomplete }}
      onOk={() => onOk(rows.map((c, i) => ({ ...c, value: toValue(texts[i] ?? '', c.judgmentMethod), sortNo: i + 1 })))}
      destroyOnHidden
    >
      <Table
        size="small"
        rowKey={(_, i) => String(i)}
        pagination={false}
        dataSource={rows}
        columns={[
          {
            title: '(',
            width: 80,
            render: (_, c, i) => (
              <Select size="small" value={c.leftBracket ?? ''} style={{ width: 64 }} aria-label="(" onChange={(v) => set(i, { leftBracket: v })} options={['', '(', '(('].map((b) => ({ value: b, label: b || '—' }))} />
            ),
          },
          {
            title: t('scopes.field'),
            render: (_, c, i) => (
              <Input size="small" value={c.key} placeholder={t('scopes.fieldPlaceholder')} status={c.key && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(c.key) ? 'error' : undefined} onChange={(e) => set(i, { key: e.target.value.trim() })} />
            ),
          },
          {
            title: t('scopes.operator'),
            width: 140,
            render: (_, c, i) => (
              <Select
                size="small"
                style={{ width: 128 }}
                showSearch={{ optionFilterProp: 'label' }}
                aria-label={t('scopes.operator')}
                value={operatorOf(c.judgmentMethod).code}
                onChange={(v) => set(i, { judgmentMethod: v })}
                options={FILTER_OPERATORS.map((op) => ({ value: op.code, label: i18n.language.startsWith('zh') ? op.zh : op.en }))}
              />
            ),
          },
          {
            title: t('scopes.value'),
            render: (_, c, i) => (
              <Input
                size="small"
                value={texts[i] ?? ''}
                placeholder={['list', 'two'].includes(operatorOf(c.judgmentMethod).arity) ? t('scopes.severalValues') : undefined}
                disabled={['none', 'shortcut'].includes(operatorOf(c.judgmentMethod).arity)}
                onChange={(e) => setTexts((all) => Object.assign([...all], { [i]: e.target.value }))}
              />
            ),
          },
          {
            title: ')',
            width: 80,
            render: (_, c, i) => (
              <Select size="small" value={c.rightBracket ?? ''} style={{ width: 64 }} aria-label=")" onChange={(v) => set(i, { rightBracket: v })} options={['', ')', '))'].map((b) => ({ value: b, label: b || '—' }))} />
            ),
          },
          {
            title: t('scopes.link'),
            width: 100,
            render: (_, c, i) =>
              i < rows.length - 1 ? (
                <Select size="small" style={{ width: 84 }} value={String(c.linkCondition ?? 'and')} onChange={(v) => set(i, { linkCondition: v as 'and' | 'or' })} options={[{ value: 'and', label: t('scopes.and') }, { value: 'or', label: t('scopes.or') }]} />
              ) : null,
          },
          {
            width: 48,
            render: (_, __, i) => <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('scopes.removeCondition')} onClick={() => {
                  setRows((r) => r.filter((_, j) => j !== i));
                  setTexts((all) => all.filter((_, j) => j !== i));
                }} />,
          },
        ]}
      />
      <Button style={{ marginTop: 8 }} icon={<PlusOutlined />} onClick={() => {
          setRows((r) => [...r, blank()]);
          setTexts((all) => [...all, '']);
        }}>
        {t('scopes.addCondition')}
      </Button>
      {depth !== 0 && (
        <Typography.Paragraph type="danger" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('scopes.unbalanced')}
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
