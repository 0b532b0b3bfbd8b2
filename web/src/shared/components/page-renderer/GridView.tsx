import { CopyOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Collapse, Form, Grid, Popconfirm, Space, Table, Tooltip, Typography } from 'antd';
import type { ColumnsType, TableRef } from 'antd/es/table';
import { summarize, summaryOf, type TBusinessRecord, type TButton, type TView } from '@tessera/core/page-definition';
import { ControlTypeId, formatControlValue, getControlType } from '@tessera/core/controls/registry';
import type { TDataControl } from '@tessera/core/page-definition';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ControlField } from './ControlField.tsx';
import { localizedTitle, viewTitle } from './control-rules.ts';
import { boundField, ControlTitle, problemText, useControlFlags } from './FormView.tsx';
import { gridCellId, useGridKeyboard } from './grid-keyboard.ts';
import { childRowsOf } from './page-data.ts';
import { useRenderer } from './renderer-context.ts';
import { summaryRow } from './summary.tsx';
import './renderer-texts.ts';

const WIDTH_BY_FIELD_TYPE: Record<number, number> = { 1: 180, 2: 120, 3: 140, 4: 170, 5: 80, 6: 200 };
const ROW_ACTIONS = new Set(['add', 'copyRow', 'delete']);
/** Id controls (3001/3002) show a read-only value, files (1013/1014) open a popover: the keyboard skips them. */
const ID_TYPES = new Set<number>([ControlTypeId.Id, ControlTypeId.Ids, ControlTypeId.Attachment, ControlTypeId.Image]);

/** Built-in action of a button (`buttonType`), or 'custom'. */
export const buttonAction = (button: Pick<TButton, 'buttonType'>) => (button.buttonType == null || button.buttonType === '' ? 'custom' : String(button.buttonType));

/**
 * A child grid view: rows of the parent record, edited inline; add / copy / delete rows. Virtualised
 * (antd Table `virtual`) so hundreds of rows stay smooth; Enter / Tab move through the cells.
 */
export function GridView({ view, parentRecordId }: { view: TView; parentRecordId: string | null }) {
  const { t, i18n } = useTranslation('pageRenderer');
  const ctx = useRenderer();
  const flags = useControlFlags();
  const [selected, setSelected] = useState<string[]>([]);
  const rows = childRowsOf(ctx.data, view, parentRecordId);
  const viewReadOnly = ctx.readOnly || ctx.pageState.readOnly.has(view.id);
  // Fixed rows: the cells may still be edited, but no row is added, copied or deleted.
  const rowsFixed = ctx.fixedRowViews.has(view.id);
  const selectable = !viewReadOnly && !rowsFixed;
  const controls = view.dataControls.filter((c) => flags(c, view).visible && c.code !== view.associateForeignKeyCode);
  const table = useRef<TableRef>(null);
  // On a phone the lines are cards (expand one to edit it); wider screens get the grid.
  const phone = Grid.useBreakpoint().md === false;
  // Keyboard stops: cells the user can type in (computed fields are skipped).
  const stops = viewReadOnly ? [] : controls.filter((c) => flags(c, view).editable && !ID_TYPES.has(Number(c.controlType))).map((c) => c.code);

  const columns = useMemo<ColumnsType<TBusinessRecord>>(
    () => [
      { key: '#', title: t('index'), width: 64, fixed: 'left', render: (_v, _r, i) => i + 1 },
      ...controls.map((control) => {
        const title = localizedTitle(control, i18n.language);
        return {
          key: control.id,
          title: <ControlTitle title={title} computed={flags(control, view).computed} />,
          width: WIDTH_BY_FIELD_TYPE[getControlType(control.controlType).tableFieldType] ?? 160,
          render: (_: unknown, record: TBusinessRecord, index: number) => {
            const problem = ctx.problemOf(view, record, control);
            const field = (
              <ControlField
                id={gridCellId(view.code, index, control.code)}
                {...boundField(ctx, view, record, control)}
                disabled={!flags(control, view).editable || viewReadOnly}
                compact
                status={problem ? 'error' : undefined}
              />
            );
            // Always inside the tooltip: a cell whose error comes or goes keeps its input (and the focus).
            return (
              <Tooltip title={problem ? problemText(t, problem, title) : undefined} color="red">
                {field}
              </Tooltip>
            );
          },
        };
      }),
    ],
    // Rebuilt with the data: cells read the current record through `render`.
    [controls, ctx, i18n.language, viewReadOnly], // eslint-disable-line react-hooks/exhaustive-deps
  );

  const buttons = view.viewButtons.length ? view.viewButtons : null;
  const width = columns.reduce((sum, c) => sum + (Number(c.width) || 0), 48);
  const hiddenButton = (b: TButton) => ctx.pageState.hidden.has(b.id);
  const lockedButton = (b: TButton) => viewReadOnly || ctx.pageState.readOnly.has(b.id);
  // Rows can be added where an add tool is usable: the default tools, or a visible, unlocked add button.
  const canAddRows = selectable && (!buttons || buttons.some((b) => buttonAction(b) === 'add' && !hiddenButton(b) && !lockedButton(b)));
  const addRow = useCallback(() => ctx.addRows(view, parentRecordId), [ctx, view, parentRecordId]);
  const onKeyDown = useGridKeyboard({ viewCode: view.code, controlCodes: stops, rowCount: rows.length, table, addRow: canAddRows ? addRow : undefined });

  const rowTool = (action: string, key: string, title: string, disabled: boolean) => {
    if (action === 'add')
      return (
        <Button key={key} size="small" icon={<PlusOutlined />} disabled={disabled} onClick={addRow}>
          {title}
        </Button>
      );
    if (action === 'copyRow')
      return (
        <Button key={key} size="small" icon={<CopyOutlined />} disabled={disabled || !selected.length} onClick={() => ctx.copyRows(view, selected)}>
          {title}
        </Button>
      );
    return (
      <Popconfirm key={key} title={t('confirmDelete')} disabled={disabled || !selected.length} onConfirm={() => (ctx.deleteRows(view, selected), setSelected([]))}>
        <Button size="small" danger icon={<DeleteOutlined />} disabled={disabled || !selected.length}>
          {title}
        </Button>
      </Popconfirm>
    );
  };

  return (
    <div data-view-code={view.code} onKeyDownCapture={onKeyDown}>
      <Space style={{ marginBottom: 8 }} wrap>
        {buttons
          ? buttons.filter((b) => !hiddenButton(b)).map((b) => {
              const action = buttonAction(b);
              const title = localizedTitle(b as { title: string; code?: string | null }, i18n.language);
              if (ROW_ACTIONS.has(action)) return rowTool(action, b.id, title, lockedButton(b) || rowsFixed);
              return (
                <Button key={b.id} size="small" disabled={lockedButton(b)} onClick={() => ctx.runButton(b, view)}>
                  {title}
                </Button>
              );
            })
          : selectable && !phone && [rowTool('add', 'add', t('addRow'), false), rowTool('copyRow', 'copy', t('copyRows'), false), rowTool('delete', 'delete', t('deleteRows'), false)]}
        <Typography.Text type="secondary">{t('rowCount', { count: rows.length })}</Typography.Text>
      </Space>
      {phone ? (
        <RowCards view={view} rows={rows} controls={controls} readOnly={viewReadOnly} canDelete={selectable} canAdd={canAddRows} onAdd={addRow} />
      ) : (
      <Table<TBusinessRecord>
          ref={table}
          size="small"
          bordered
          virtual
          rowKey="Id"
          aria-label={viewTitle(view, i18n.language)}
          columns={columns}
          dataSource={rows}
          pagination={false}
          scroll={{ x: width, y: 360 }}
          rowSelection={!selectable ? undefined : { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)), columnWidth: 48, fixed: true }}
          summary={controls.some((c) => summaryOf(c)) ? () => summaryRow({ columns: controls, leading: selectable ? 2 : 1, totals: (c, kind) => summarize(kind, rows.map((r) => r[c.code])), t, language: i18n.language }) : undefined}
          locale={{ emptyText: t('lookupEmpty') }}
        />
      )}
    </div>
  );
}

/**
 * A child view's lines on a phone: one expandable card per line (its number and first field in
 * the header, its fields one per row inside); a newly added line opens.
 */
function RowCards({ view, rows, controls, readOnly, canDelete, canAdd, onAdd }: { view: TView; rows: TBusinessRecord[]; controls: TDataControl[]; readOnly: boolean; canDelete: boolean; canAdd: boolean; onAdd(): void }) {
  const { t, i18n } = useTranslation('pageRenderer');
  const ctx = useRenderer();
  const flags = useControlFlags();
  const [open, setOpen] = useState<string[]>([]);
  const count = useRef(rows.length);
  useEffect(() => {
    // A line was added: open it.
    if (rows.length > count.current) setOpen((keys) => [...keys, rows[rows.length - 1]!.Id]);
    count.current = rows.length;
  }, [rows]);
  const first = controls[0];
  const locale = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  return (
    <div data-testid="row-cards">
      <Collapse
        size="small"
        activeKey={open}
        onChange={(keys) => setOpen(Array.isArray(keys) ? keys : [keys])}
        items={rows.map((record, index) => ({
          key: record.Id,
          label: (
            <span data-testid="row-card">
              {t('lineNumber', { n: index + 1 })}
              {first && record[first.code] != null && record[first.code] !== '' ? ` · ${formatControlValue(first, record[first.code], { locale })}` : ''}
            </span>
          ),
          extra: !canDelete ? undefined : (
            <Popconfirm title={t('confirmDelete')} onConfirm={() => ctx.deleteRows(view, [record.Id])}>
              <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('deleteRows')} onClick={(e) => e.stopPropagation()} />
            </Popconfirm>
          ),
          children: (
            <Form layout="vertical" component="div" colon={false}>
              {controls.map((control) => {
                const title = localizedTitle(control, i18n.language);
                const problem = ctx.problemOf(view, record, control);
                const id = gridCellId(view.code, index, control.code);
                return (
                  <Form.Item key={control.id} label={<ControlTitle title={title} computed={flags(control, view).computed} />} htmlFor={id} validateStatus={problem ? 'error' : undefined} help={problem ? problemText(t, problem, title) : undefined} style={{ marginBottom: 8 }}>
                    <ControlField id={id} {...boundField(ctx, view, record, control)} disabled={!flags(control, view).editable || readOnly} status={problem ? 'error' : undefined} />
                  </Form.Item>
                );
              })}
            </Form>
          ),
        }))}
      />
      {canAdd && (
        <Button block type="dashed" icon={<PlusOutlined />} onClick={onAdd} style={{ marginTop: 8 }}>
          {t('addRow')}
        </Button>
      )}
    </div>
  );
}
