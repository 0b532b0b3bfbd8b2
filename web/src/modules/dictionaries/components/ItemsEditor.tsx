import { DeleteOutlined, GlobalOutlined, HolderOutlined, PlusOutlined, SubnodeOutlined } from '@ant-design/icons';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent, type UniqueIdentifier } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Button, Input, Popover, Select, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { ITEM_COLORS } from '@tessera/core/contracts/dictionaries';
import { createContext, useCallback, useContext, useMemo, type CSSProperties, type HTMLAttributes } from 'react';
import { useDndAccessibility } from '../../../shared/ui/dnd-accessibility.ts';
import { useTranslation } from 'react-i18next';
import { LocalizedTextInput } from '../../../shared/components/LocalizedTextInput.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { childInsertIndex, descendantCodes, normalizeItems, type EditableItem } from './item-tree.ts';
import '../i18n.ts';

type HandleProps = Pick<ReturnType<typeof useSortable>, 'setActivatorNodeRef' | 'listeners' | 'attributes'>;
const HandleContext = createContext<HandleProps | null>(null);

/** A table row that can be dragged by its handle (the row itself stays selectable for typing). */
function SortableRow(props: HTMLAttributes<HTMLTableRowElement> & { 'data-row-key': string }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: props['data-row-key'] });
  const style: CSSProperties = {
    ...props.style,
    transform: CSS.Translate.toString(transform),
    transition,
    ...(isDragging ? { position: 'relative', zIndex: 10, background: 'var(--ant-color-bg-elevated, #fff)', boxShadow: '0 4px 12px rgba(0,0,0,.15)' } : {}),
  };
  const handle = useMemo(() => ({ setActivatorNodeRef, listeners, attributes }), [setActivatorNodeRef, listeners, attributes]);
  return (
    <HandleContext.Provider value={handle}>
      <tr {...props} ref={setNodeRef} style={style} />
    </HandleContext.Provider>
  );
}

function DragHandle({ label }: { label: string }) {
  const handle = useContext(HandleContext);
  return (
    <Button
      type="text"
      size="small"
      icon={<HolderOutlined />}
      style={{ cursor: 'grab', touchAction: 'none' }}
      ref={handle?.setActivatorNodeRef}
      {...handle?.attributes}
      {...handle?.listeners}
      aria-label={label}
      data-testid="item-drag-handle"
    />
  );
}

const colorOptions = (noColor: string, current: (string | null)[]) => [
  { value: '', label: <Typography.Text type="secondary">{noColor}</Typography.Text> },
  ...[...new Set([...ITEM_COLORS, ...current.filter((c): c is string => !!c)])].map((c) => ({
    value: c,
    label: (
      <Tag color={c === 'default' ? undefined : c} style={{ marginInlineEnd: 0 }}>
        {c}
      </Tag>
    ),
  })),
];

export interface ItemsEditorProps {
  items: EditableItem[];
  isTree: boolean;
  onChange(items: EditableItem[]): void;
  /** Problems per item key (client checks and the server's `items.N.*` errors). */
  errors: Map<string, string[]>;
  newKey(): string;
}

/** The items of a dictionary: inline editing, drag ordering, tree parents, enabled flag and colour. */
export function ItemsEditor({ items, isTree, onChange, errors, newKey }: ItemsEditorProps) {
  const { t } = useTranslation('dictionaries');
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const { items: shown, depth } = useMemo(() => normalizeItems(items, isTree), [items, isTree]);
  const commit = (next: EditableItem[]) => onChange(normalizeItems(next, isTree).items);
  // Screen readers hear the items' codes while they are moved, not the editor's row keys.
  const accessibility = useDndAccessibility(useCallback((id: UniqueIdentifier) => shown.find((i) => i.key === id)?.code || null, [shown]));

  const patch = (key: string, change: Partial<EditableItem>) => {
    const before = shown.find((i) => i.key === key);
    let next = shown.map((i) => (i.key === key ? { ...i, ...change } : i));
    // A new item's children follow its code while it is being typed.
    if (before && change.code !== undefined && before.code && !before.id) {
      next = next.map((i) => (i.parentCode === before.code && i.key !== key ? { ...i, parentCode: change.code || null } : i));
    }
    commit(next);
  };

  const add = (parent?: EditableItem) => {
    const item: EditableItem = { key: newKey(), code: '', label: {}, parentCode: parent?.code || null, isEnabled: true, color: null };
    const at = parent ? childInsertIndex(shown, parent.key) : shown.length;
    commit([...shown.slice(0, at), item, ...shown.slice(at)]);
    // Focus the new row's code input once it is rendered.
    setTimeout(() => document.querySelector<HTMLInputElement>(`[data-item-key="${item.key}"] input[data-field="code"]`)?.focus(), 50);
  };

  const remove = (item: EditableItem) => {
    const below = isTree && item.code ? descendantCodes(shown, item.code) : new Set<string>();
    const drop = () => commit(shown.filter((i) => i.key !== item.key && !(i.code && below.has(i.code))));
    if (below.size === 0) return drop();
    feedback.modal?.confirm({
      title: t('common:confirmDelete'),
      content: t('items.removeWithChildren', { code: item.code, count: below.size }),
      okText: t('common:ok'),
      cancelText: t('common:cancel'),
      okButtonProps: { danger: true },
      onOk: drop,
    });
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = shown.findIndex((i) => i.key === active.id);
    const to = shown.findIndex((i) => i.key === over.id);
    commit(arrayMove(shown, from, to));
  };

  const status = (key: string, match: RegExp) => ((errors.get(key) ?? []).some((e) => match.test(e)) ? ('error' as const) : undefined);

  const columns: ColumnsType<EditableItem> = [
    { key: 'drag', width: 40, align: 'center', render: () => <DragHandle label={t('items.drag')} /> },
    {
      title: (
        <Tooltip title={t('items.codeHint')}>
          <span>{t('items.code')}</span>
        </Tooltip>
      ),
      key: 'code',
      width: 200,
      render: (_, item) => (
        <div style={{ display: 'flex', alignItems: 'center', paddingInlineStart: (depth.get(item.key) ?? 0) * 18 }}>
          {isTree && (depth.get(item.key) ?? 0) > 0 && <span aria-hidden style={{ color: 'var(--ant-color-text-quaternary, #bbb)', marginInlineEnd: 4 }}>└</span>}
          <Input
            size="small"
            value={item.code}
            readOnly={!!item.id}
            variant={item.id ? 'borderless' : 'outlined'}
            title={item.id ? t('items.codeHint') : undefined}
            maxLength={64}
            data-field="code"
            status={errors.get(item.key)?.length && !item.code ? 'error' : status(item.key, /code|编码/i)}
            aria-label={t('items.code')}
            onChange={(e) => patch(item.key, { code: e.target.value.trim() })}
          />
        </div>
      ),
    },
    {
      title: t('items.labelZh'),
      key: 'label-zh',
      render: (_, item) => (
        <Input size="small" value={item.label['zh-CN'] ?? ''} maxLength={200} aria-label={t('items.labelZh')} data-field="label-zh" onChange={(e) => patch(item.key, { label: { ...item.label, 'zh-CN': e.target.value } })} />
      ),
    },
    {
      title: t('items.labelEn'),
      key: 'label-en',
      render: (_, item) => (
        <Space.Compact style={{ width: '100%' }}>
          <Input size="small" value={item.label['en-US'] ?? ''} maxLength={200} aria-label={t('items.labelEn')} data-field="label-en" onChange={(e) => patch(item.key, { label: { ...item.label, 'en-US': e.target.value } })} />
          <Popover
            trigger="click"
            title={t('items.labelMoreTitle')}
            content={
              <div style={{ width: 360 }}>
                <LocalizedTextInput value={item.label} onChange={(label) => patch(item.key, { label })} />
              </div>
            }
          >
            <Tooltip title={t('items.labelMore')}>
              <Button size="small" icon={<GlobalOutlined />} aria-label={t('items.labelMore')} type={Object.keys(item.label).some((c) => c !== 'zh-CN' && c !== 'en-US' && item.label[c]) ? 'primary' : 'default'} ghost={false} />
            </Tooltip>
          </Popover>
        </Space.Compact>
      ),
    },
    ...(isTree
      ? [
          {
            title: t('items.parent'),
            key: 'parent',
            width: 150,
            render: (_: unknown, item: EditableItem) => {
              const below = item.code ? descendantCodes(shown, item.code) : new Set<string>();
              return (
                <Select
                  size="small"
                  style={{ width: '100%' }}
                  value={item.parentCode ?? ''}
                  showSearch
                  aria-label={t('items.parent')}
                  status={status(item.key, /parent|上级/i)}
                  options={[
                    { value: '', label: t('items.noParent') },
                    ...shown.filter((o) => o.code && o.key !== item.key && !below.has(o.code)).map((o) => ({ value: o.code, label: o.code })),
                  ]}
                  onChange={(v: string) => patch(item.key, { parentCode: v || null })}
                />
              );
            },
          },
        ]
      : []),
    {
      title: t('items.color'),
      key: 'color',
      width: 130,
      render: (_, item) => (
        <Select size="small" style={{ width: '100%' }} value={item.color ?? ''} aria-label={t('items.color')} options={colorOptions(t('items.noColor'), [item.color])} onChange={(v: string) => patch(item.key, { color: v || null })} />
      ),
    },
    {
      title: t('items.enabled'),
      key: 'enabled',
      width: 70,
      align: 'center',
      render: (_, item) => <Switch size="small" checked={item.isEnabled} aria-label={`${t('items.enabled')} ${item.code}`} onChange={(v) => patch(item.key, { isEnabled: v })} />,
    },
    {
      key: 'actions',
      width: isTree ? 72 : 40,
      render: (_, item) => (
        <Space size={0}>
          {isTree && (
            <Tooltip title={t('items.addChild')}>
              <Button size="small" type="text" icon={<SubnodeOutlined />} disabled={!item.code} aria-label={`${t('items.addChild')} ${item.code}`} onClick={() => add(item)} />
            </Tooltip>
          )}
          <Tooltip title={t('items.remove')}>
            <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={`${t('items.remove')} ${item.code}`} onClick={() => remove(item)} />
          </Tooltip>
        </Space>
      ),
    },
  ];

  return (
    <div>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>
        {t('items.dragHint')}
      </Typography.Paragraph>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={accessibility}>
        <SortableContext items={shown.map((i) => i.key)} strategy={verticalListSortingStrategy}>
          <Table<EditableItem>
            size="small"
            rowKey="key"
            columns={columns}
            dataSource={shown}
            pagination={false}
            components={{ body: { row: SortableRow } }}
            onRow={(item) => ({ 'data-item-key': item.key }) as HTMLAttributes<HTMLElement>}
            rowClassName={(item) => [item.isEnabled ? '' : 'dictionary-item-disabled', errors.get(item.key)?.length ? 'dictionary-item-error' : ''].join(' ').trim()}
            locale={{ emptyText: t('items.empty') }}
            data-testid="dictionary-items"
            scroll={{ y: 'calc(100vh - 460px)' }}
          />
        </SortableContext>
      </DndContext>
      <Button type="dashed" icon={<PlusOutlined />} block style={{ marginTop: 8 }} onClick={() => add()}>
        {t('items.add')}
      </Button>
    </div>
  );
}
