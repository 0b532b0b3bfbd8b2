import {
  AlignLeftOutlined,
  AppstoreOutlined,
  BorderOutlined,
  CalendarOutlined,
  CheckSquareOutlined,
  FieldNumberOutlined,
  FileTextOutlined,
  FontColorsOutlined,
  FontSizeOutlined,
  IdcardOutlined,
  MoneyCollectOutlined,
  NumberOutlined,
  PaperClipOutlined,
  PictureOutlined,
  SearchOutlined,
  TableOutlined,
  TeamOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { useDraggable } from '@dnd-kit/core';
import { Input, Tooltip } from 'antd';
import type { TPaletteControlType, TPaletteViewType } from '@tessera/core/contracts/pages';
import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaletteIndex } from './palette-index.ts';
import { ControlTypeId } from '@tessera/core/controls/registry';

const CONTROL_ICONS: Record<number, ReactNode> = {
  [ControlTypeId.Text]: <FontSizeOutlined />,
  [ControlTypeId.Integer]: <NumberOutlined />,
  [ControlTypeId.Decimal]: <FieldNumberOutlined />,
  [ControlTypeId.Date]: <CalendarOutlined />,
  [ControlTypeId.Boolean]: <CheckSquareOutlined />,
  [ControlTypeId.SingleChoice]: <UnorderedListOutlined />,
  [ControlTypeId.SingleChoiceAlt]: <UnorderedListOutlined />,
  [ControlTypeId.MultiSelect]: <UnorderedListOutlined />,
  [ControlTypeId.MultiValue]: <UnorderedListOutlined />,
  [ControlTypeId.Lookup]: <SearchOutlined />,
  [ControlTypeId.DocumentNumber]: <FileTextOutlined />,
  [ControlTypeId.Id]: <IdcardOutlined />,
  [ControlTypeId.Ids]: <IdcardOutlined />,
  [ControlTypeId.UserOrgPicker]: <TeamOutlined />,
  [ControlTypeId.Attachment]: <PaperClipOutlined />,
  [ControlTypeId.Image]: <PictureOutlined />,
  [ControlTypeId.MultilineText]: <AlignLeftOutlined />,
  [ControlTypeId.RichText]: <FontColorsOutlined />,
  [ControlTypeId.Currency]: <MoneyCollectOutlined />,
};
const VIEW_ICONS: Record<number, ReactNode> = { 1: <BorderOutlined />, 2: <TableOutlined />, 3: <AppstoreOutlined /> };
const GROUPS = ['basic', 'choice', 'lookup', 'system'] as const;

export interface PaletteProps {
  palette: PaletteIndex;
  /** Keyboard / click: add to the selected view (drag works without it). */
  onAddControl(controlType: number): void;
  onAddView(viewType: number): void;
}

/** Left pane: view types and every data control type from the control-designer palette. */
export function Palette({ palette, onAddControl, onAddView }: PaletteProps) {
  const { t } = useTranslation('pageDesigner');
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const match = (item: { name: string; title: { 'zh-CN': string; 'en-US': string } }) =>
    !needle || item.name.toLowerCase().includes(needle) || item.title['zh-CN'].includes(needle) || item.title['en-US'].toLowerCase().includes(needle);
  const views = palette.raw.viewTypes.filter(match);
  return (
    <aside className="dz-palette" aria-label={t('designer.palette')}>
      <Input.Search size="small" allowClear placeholder={t('designer.searchPalette')} value={search} onChange={(e) => setSearch(e.target.value)} />
      {views.length > 0 && <div className="dz-palette-group">{t('designer.views')}</div>}
      <div className="dz-palette-items">
        {views.map((v) => (
          <PaletteItem key={`v${v.code}`} id={`pal:view:${v.code}`} data={{ kind: 'palette-view', viewType: v.code }} item={v} palette={palette} icon={VIEW_ICONS[v.code]} onActivate={() => onAddView(v.code)} />
        ))}
      </div>
      {GROUPS.map((group) => {
        const items = palette.raw.controlTypes.filter((c) => c.group === group && match(c));
        if (!items.length) return null;
        return (
          <div key={group}>
            <div className="dz-palette-group">{t(`designer.group.${group}`)}</div>
            <div className="dz-palette-items">
              {items.map((c) => (
                <PaletteItem key={c.code} id={`pal:ctl:${c.code}`} data={{ kind: 'palette-control', controlType: c.code }} item={c} palette={palette} icon={CONTROL_ICONS[c.code]} onActivate={() => onAddControl(c.code)} />
              ))}
            </div>
          </div>
        );
      })}
    </aside>
  );
}

function PaletteItem({
  id,
  data,
  item,
  palette,
  icon,
  onActivate,
}: {
  id: string;
  data: Record<string, unknown>;
  item: TPaletteControlType | TPaletteViewType;
  palette: PaletteIndex;
  icon: ReactNode;
  onActivate(): void;
}) {
  const { attributes, listeners, setNodeRef } = useDraggable({ id, data });
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onActivate();
    }
  };
  return (
    <Tooltip title={palette.text(item.help)} placement="right" mouseEnterDelay={0.6}>
      <div
        ref={setNodeRef}
        className="dz-palette-item"
        {...attributes}
        {...listeners}
        onKeyDown={onKeyDown}
        onDoubleClick={onActivate}
        data-palette={id}
        aria-label={palette.text(item.title)}
      >
        {icon ?? <BorderOutlined />}
        <span>{palette.text(item.title)}</span>
      </div>
    </Tooltip>
  );
}
