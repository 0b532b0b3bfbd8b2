import { BarcodeOutlined, BorderOutlined, ClockCircleOutlined, FieldStringOutlined, FontSizeOutlined, LineOutlined, NumberOutlined, PictureOutlined, QrcodeOutlined, TableOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Empty, Tooltip, Typography } from 'antd';
import type { DragEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import '../i18n.ts';
import type { PaletteItem } from './layout-ops.ts';
import type { PrintablePage } from './page-views.ts';
import { DRAG_TYPE } from './PaperCanvas.tsx';

/** What a palette or picker entry adds: a palette item, a master field, or a child view's table. */
export type AddPayload = { kind: 'palette'; item: PaletteItem } | { kind: 'field'; code: string } | { kind: 'view'; code: string };

const ICONS: Record<PaletteItem, ReactNode> = {
  text: <FontSizeOutlined />,
  field: <FieldStringOutlined />,
  table: <TableOutlined />,
  line: <LineOutlined />,
  rectangle: <BorderOutlined />,
  image: <PictureOutlined />,
  qrCode: <QrcodeOutlined />,
  barcode: <BarcodeOutlined />,
  pageNumber: <NumberOutlined />,
  printTime: <ClockCircleOutlined />,
  printUser: <UserOutlined />,
};
const ITEMS = Object.keys(ICONS) as PaletteItem[];

const dragStart = (payload: AddPayload) => (e: DragEvent) => {
  e.dataTransfer.setData(DRAG_TYPE, JSON.stringify(payload));
  e.dataTransfer.effectAllowed = 'copy';
};

/** The left panel: the element palette, the master view's fields and the child views (click or drag onto the paper). */
export function Palette({ page, onAdd }: { page: PrintablePage; onAdd(payload: AddPayload): void }) {
  const { t } = useTranslation('print');
  const disabled = (item: PaletteItem) => (item === 'field' && page.masterFields.length === 0) || (item === 'table' && page.childViews.length === 0);
  return (
    <div data-testid="print-palette">
      <div className="ps-section">{t('palette.title')}</div>
      <div className="ps-palette">
        {ITEMS.map((item) => (
          <Tooltip key={item} title={disabled(item) ? t('palette.nothingToBind') : t('palette.addHint')} mouseEnterDelay={0.6}>
            <Button
              size="small"
              icon={ICONS[item]}
              disabled={disabled(item)}
              draggable={!disabled(item)}
              onDragStart={dragStart({ kind: 'palette', item })}
              onClick={() => onAdd({ kind: 'palette', item })}
              data-testid={`print-palette-${item}`}
            >
              {t(`palette.${item}`)}
            </Button>
          </Tooltip>
        ))}
      </div>
      <div className="ps-section">
        {t('palette.fields')}
        {page.masterTitle && <Typography.Text type="secondary"> · {page.masterTitle}</Typography.Text>}
      </div>
      {page.masterFields.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('palette.noFields')} />}
      {page.masterFields.map((f) => (
        <button key={f.code} type="button" className="ps-pick" draggable onDragStart={dragStart({ kind: 'field', code: f.code })} onClick={() => onAdd({ kind: 'field', code: f.code })} data-testid={`print-field-${f.code}`}>
          {f.title} <Typography.Text type="secondary">{f.code}</Typography.Text>
        </button>
      ))}
      <div className="ps-section">{t('palette.childViews')}</div>
      {page.childViews.length === 0 && <Typography.Text type="secondary">{t('palette.noChildViews')}</Typography.Text>}
      {page.childViews.map((v) => (
        <button key={v.code} type="button" className="ps-pick" draggable onDragStart={dragStart({ kind: 'view', code: v.code })} onClick={() => onAdd({ kind: 'view', code: v.code })} data-testid={`print-view-${v.code}`}>
          <TableOutlined /> {v.title} <Typography.Text type="secondary">({v.fields.length})</Typography.Text>
        </button>
      ))}
    </div>
  );
}
