import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Checkbox, Form, Input, Select, Space, Switch, Typography } from 'antd';
import { PRINT_FONTS, PRINT_LIMITS, type TPaper, type TPrintTableColumn } from '@tessera/core/contracts/print-templates';
import { useTranslation } from 'react-i18next';
import '../i18n.ts';
import { FormatEditor } from './FormatEditor.tsx';
import { ColorInput, NumberInput } from './inputs.tsx';
import { evenColumns, movedColumn, rebindTable, type ElementOf, type PrintableView } from './layout-ops.ts';

type Table = ElementOf<'table'>;

/** A table's child view, columns (field, title, width, alignment, format, total), header repeat, total row and style. */
export function TableProperties({ table, views, paper, onChange }: { table: Table; views: PrintableView[]; paper: TPaper; onChange(next: Table, mergeKey?: string): void }) {
  const { t } = useTranslation('print');
  const view = views.find((v) => v.code === table.view);
  const setColumns = (columns: TPrintTableColumn[], mergeKey?: string) => onChange({ ...table, columns }, mergeKey);
  const setColumn = (i: number, patch: Partial<TPrintTableColumn>, mergeKey?: string) => setColumns(table.columns.map((c, j) => (j === i ? { ...c, ...patch } : c)), mergeKey);
  const sum = Math.round(table.columns.reduce((s, c) => s + c.width, 0) * 100) / 100;
  const addColumn = () => {
    const used = new Set(table.columns.map((c) => c.field));
    const field = view?.fields.find((f) => !used.has(f.code)) ?? view?.fields[0];
    if (!field) return;
    setColumns(evenColumns([...table.columns, { field: field.code, title: field.title.slice(0, 100), width: 10, alignment: field.isNumber ? 'right' : 'left', format: { kind: 'none' }, total: false }]));
  };
  const setStyle = <K extends keyof Table['style']>(key: K, v: Table['style'][K]) => onChange({ ...table, style: { ...table.style, [key]: v } }, `table-style:${key}`);
  return (
    <>
      <div className="ps-section">{t('props.table')}</div>
      <Form.Item label={t('props.view')}>
        <Select
          value={table.view}
          onChange={(code) => {
            const next = views.find((v) => v.code === code);
            if (next) onChange(rebindTable(table, next, paper));
          }}
          options={views.map((v) => ({ value: v.code, label: `${v.title} (${v.code})` }))}
        />
      </Form.Item>
      <div className="ps-section">
        {t('props.columns')}{' '}
        <Typography.Text type={Math.abs(sum - 100) > 0.01 ? 'warning' : 'secondary'} style={{ fontWeight: 400 }}>
          {t('props.widthsSum', { sum })}
        </Typography.Text>
      </div>
      {table.columns.map((c, i) => (
        <div key={i} className="ps-column" data-testid={`print-column-${i}`}>
          <Space.Compact style={{ width: '100%', marginBottom: 4 }}>
            <Select
              size="small"
              style={{ width: '50%' }}
              value={c.field}
              aria-label={t('props.columnField')}
              onChange={(field) => setColumn(i, { field, title: view?.fields.find((f) => f.code === field)?.title.slice(0, 100) ?? c.title })}
              options={(view?.fields ?? []).map((f) => ({ value: f.code, label: f.title || f.code }))}
            />
            <Input size="small" style={{ width: '50%' }} value={c.title} maxLength={100} aria-label={t('props.columnTitle')} placeholder={t('props.columnTitle')} onChange={(e) => setColumn(i, { title: e.target.value }, `column:${i}:title`)} />
          </Space.Compact>
          <Space size={4} wrap>
            <NumberInput value={c.width} min={1} max={100} width={72} label={t('props.columnWidth')} onChange={(width) => setColumn(i, { width }, `column:${i}:width`)} />
            <Select
              size="small"
              style={{ width: 64 }}
              value={c.alignment}
              aria-label={t('props.alignment')}
              onChange={(alignment) => setColumn(i, { alignment })}
              options={(['left', 'center', 'right'] as const).map((a) => ({ value: a, label: t(`props.alignments.${a}`) }))}
            />
            <Checkbox checked={c.total} onChange={(e) => setColumn(i, { total: e.target.checked })}>
              {t('props.columnTotal')}
            </Checkbox>
            <Button size="small" type="text" icon={<ArrowUpOutlined />} disabled={i === 0} aria-label={t('props.moveUp')} onClick={() => setColumns(movedColumn(table.columns, i, -1))} />
            <Button size="small" type="text" icon={<ArrowDownOutlined />} disabled={i === table.columns.length - 1} aria-label={t('props.moveDown')} onClick={() => setColumns(movedColumn(table.columns, i, 1))} />
            <Button size="small" type="text" danger icon={<DeleteOutlined />} disabled={table.columns.length <= 1} aria-label={t('props.removeColumn')} onClick={() => setColumns(evenColumns(table.columns.filter((_, j) => j !== i)))} />
          </Space>
          <FormatEditor value={c.format} onChange={(format) => setColumn(i, { format })} />
        </div>
      ))}
      <Space style={{ marginBottom: 8 }}>
        <Button size="small" icon={<PlusOutlined />} disabled={!view || table.columns.length >= PRINT_LIMITS.columns} onClick={addColumn}>
          {t('props.addColumn')}
        </Button>
        <Button size="small" onClick={() => setColumns(evenColumns(table.columns))}>
          {t('props.evenWidths')}
        </Button>
      </Space>
      <Form.Item>
        <Space>
          <Switch size="small" checked={table.repeatHead} onChange={(repeatHead) => onChange({ ...table, repeatHead })} />
          {t('props.repeatHead')}
        </Space>
      </Form.Item>
      <Form.Item label={t('props.totalLabel')}>
        <Input value={table.totalLabel ?? ''} maxLength={50} onChange={(e) => onChange({ ...table, totalLabel: e.target.value === '' ? null : e.target.value }, 'table:totalLabel')} />
      </Form.Item>
      <Form.Item label={t('props.subtotalLabel')} extra={t('props.subtotalHelp')}>
        <Input data-testid="print-table-subtotal" value={table.subtotalLabel ?? ''} maxLength={50} placeholder={t('props.subtotalPlaceholder')} onChange={(e) => onChange({ ...table, subtotalLabel: e.target.value === '' ? null : e.target.value }, 'table:subtotalLabel')} />
      </Form.Item>
      <div className="ps-section">{t('props.tableStyle')}</div>
      <Space align="start" wrap>
        <Form.Item label={t('props.font')}>
          <Select style={{ width: 110 }} value={table.style.font} onChange={(v) => setStyle('font', v)} options={PRINT_FONTS.map((f) => ({ value: f, label: t(`props.fonts.${f}`) }))} />
        </Form.Item>
        <Form.Item label={t('props.fontSize')}>
          <NumberInput value={table.style.fontSize} min={4} max={48} step={0.5} width={80} label={t('props.fontSize')} onChange={(v) => setStyle('fontSize', v)} />
        </Form.Item>
        <Form.Item label={t('props.headBackground')}>
          <ColorInput value={table.style.headBackground} label={t('props.headBackground')} onChange={(v) => setStyle('headBackground', v)} />
        </Form.Item>
        <Form.Item label={t('props.headColor')}>
          <ColorInput value={table.style.headColor} label={t('props.headColor')} onChange={(v) => setStyle('headColor', v)} />
        </Form.Item>
        <Form.Item label={t('props.borderColor')}>
          <ColorInput value={table.style.borderColor} label={t('props.borderColor')} onChange={(v) => setStyle('borderColor', v)} />
        </Form.Item>
        <Form.Item label={t('props.borderWidth')}>
          <NumberInput value={table.style.borderWidth} min={0} max={5} step={0.1} width={80} label={t('props.borderWidth')} onChange={(v) => setStyle('borderWidth', v)} />
        </Form.Item>
        <Form.Item label={t('props.padding')}>
          <NumberInput value={table.style.padding} min={0} max={10} step={0.5} width={80} label={t('props.padding')} onChange={(v) => setStyle('padding', v)} />
        </Form.Item>
      </Space>
    </>
  );
}
