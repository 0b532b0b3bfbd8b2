import { ApartmentOutlined, SearchOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Checkbox, Empty, Input, List, Modal, Radio, Select, Space, Spin, Tag, Typography } from 'antd';
import type { TSelectionItem, TSelectionItemType } from '@tessera/core/contracts/identity';
import { useDeferredValue, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client.ts';
import { registerTexts } from '../i18n/i18n.ts';

registerTexts('selection', {
  'zh-CN': {
    placeholder: { 1: '选择组织机构', 3: '选择用户', 4: '选择角色' },
    search: { 1: '搜索组织机构名称', 3: '搜索用户名、姓名或邮箱', 4: '搜索角色' },
    title: { 1: '选择组织机构', 3: '选择用户', 4: '选择角色' },
    browse: '选择…',
    selected: '已选 {{count}} 项',
    clear: '清空',
    none: '暂无数据',
    ok: '确定',
    cancel: '取消',
  },
  'en-US': {
    placeholder: { 1: 'Pick a unit', 3: 'Pick a user', 4: 'Pick a role' },
    search: { 1: 'Search unit names', 3: 'Search user name, name or e-mail', 4: 'Search roles' },
    title: { 1: 'Pick organisation units', 3: 'Pick users', 4: 'Pick roles' },
    browse: 'Pick…',
    selected: '{{count}} selected',
    clear: 'Clear',
    none: 'No data',
    ok: 'OK',
    cancel: 'Cancel',
  },
});

const ICONS: Record<TSelectionItemType, ReactNode> = { 1: <ApartmentOutlined />, 3: <UserOutlined />, 4: <TeamOutlined /> };

/**
 * Where a picker is used: a picker control on a business page (the server checks the caller may
 * view it, and answers display names only); absent on administrators' screens.
 */
export type SelectionContext =
  | { pageId: string; dataControlId: string }
  /** A flow's picker (users only): the caller's pending task, or the record being submitted. */
  | { workflow: { taskId: string } | { pageId: string; recordId: string } }
  | undefined;

/** The server answers at most this many items at once. */
const SELECTION_PAGE = 100;

/** spec §3 selection items from `GET /api/identity/selection-items`. */
export function fetchSelectionItems(type: TSelectionItemType, params: { filter?: string; ids?: string[]; maxResultCount?: number; context?: SelectionContext }) {
  const context = params.context;
  if (context && 'workflow' in context) {
    return api.get<TSelectionItem[]>('/app/workflow-task/users', {
      filter: params.filter || undefined,
      ids: params.ids?.length ? params.ids.join(',') : undefined,
      maxResultCount: params.maxResultCount,
      ...context.workflow,
    });
  }
  return api.get<TSelectionItem[]>('/identity/selection-items', {
    type,
    filter: params.filter || undefined,
    ids: params.ids?.length ? params.ids.join(',') : undefined,
    maxResultCount: params.maxResultCount,
    pageId: context?.pageId,
    dataControlId: context?.dataControlId,
  });
}

const contextKey = (context: SelectionContext) => (!context ? 'admin' : 'workflow' in context ? `workflow:${JSON.stringify(context.workflow)}` : `${context.pageId}:${context.dataControlId}`);

export const useSelectionSearch = (type: TSelectionItemType, filter: string, enabled = true, context?: SelectionContext) =>
  useQuery({
    queryKey: ['selection-items', type, contextKey(context), 'search', filter],
    queryFn: () => fetchSelectionItems(type, { filter, context }),
    placeholderData: keepPreviousData,
    enabled,
  });

/** The titles of ids already chosen (a form opened on saved data knows only the ids). */
export const useSelectionTitles = (type: TSelectionItemType, ids: string[], context?: SelectionContext) =>
  useQuery({
    queryKey: ['selection-items', type, contextKey(context), 'ids', [...ids].sort().join(',')],
    queryFn: () => fetchSelectionItems(type, { ids: ids.slice(0, SELECTION_PAGE), maxResultCount: SELECTION_PAGE, context }),
    enabled: ids.length > 0,
    staleTime: 60_000,
  });

type Single = { multiple?: false; value?: string | null; onChange?: (value: string | null, items: TSelectionItem[]) => void };
type Multiple = { multiple: true; value?: string[]; onChange?: (value: string[], items: TSelectionItem[]) => void };

export type SelectionItemPickerProps = (Single | Multiple) & {
  /** 1 organisation unit, 3 user, 4 role. */
  type: TSelectionItemType;
  context?: SelectionContext;
  /** `select`: a searchable drop-down (default); `modal`: a button and a dialog with a search list. */
  presentation?: 'select' | 'modal';
  placeholder?: string;
  disabled?: boolean;
  allowClear?: boolean;
  style?: React.CSSProperties;
  id?: string;
  'aria-label'?: string;
};

function toIds(value: string | string[] | null | undefined): string[] {
  if (Array.isArray(value)) return value;
  return value ? [value] : [];
}

/**
 * Picks organisation units, users or roles (single or multiple) over the selection-item endpoint.
 * Works as a controlled antd form control (`value`/`onChange`); `onChange` also hands over the
 * chosen items with their titles.
 */
export function SelectionItemPicker(props: SelectionItemPickerProps) {
  return props.presentation === 'modal' ? <PickerModal {...props} /> : <PickerSelect {...props} />;
}

function useKnownItems(type: TSelectionItemType, ids: string[], extra: TSelectionItem[] | undefined, context: SelectionContext) {
  const titles = useSelectionTitles(type, ids, context);
  return useMemo(() => {
    const map = new Map<string, TSelectionItem>();
    for (const item of titles.data ?? []) map.set(item.id, item);
    for (const item of extra ?? []) map.set(item.id, item);
    return map;
  }, [titles.data, extra]);
}

function emit(props: SelectionItemPickerProps, ids: string[], known: Map<string, TSelectionItem>) {
  const items = ids.map((id) => known.get(id) ?? { id, title: id, description: null });
  if (props.multiple) props.onChange?.(ids, items);
  else props.onChange?.(ids[0] ?? null, items);
}

function PickerSelect(props: SelectionItemPickerProps) {
  const { t } = useTranslation('selection');
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState(false);
  const filter = useDeferredValue(search.trim());
  const ids = toIds(props.value);
  const found = useSelectionSearch(props.type, filter, open, props.context);
  const known = useKnownItems(props.type, ids, found.data, props.context);
  const options = useMemo(() => {
    const list = [...(found.data ?? [])];
    for (const id of ids) if (!list.some((i) => i.id === id)) list.unshift(known.get(id) ?? { id, title: id, description: null });
    return list.map((item) => ({
      value: item.id,
      label: item.title,
      item,
    }));
  }, [found.data, ids, known]);

  return (
    <Select
      id={props.id}
      aria-label={props['aria-label']}
      mode={props.multiple ? 'multiple' : undefined}
      showSearch={{ filterOption: false, onSearch: setSearch, searchValue: search }}
      value={props.multiple ? ids : (ids[0] ?? undefined)}
      placeholder={props.placeholder ?? t(`placeholder.${props.type}`)}
      disabled={props.disabled}
      allowClear={props.allowClear ?? true}
      style={{ width: '100%', ...props.style }}
      loading={found.isFetching}
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) setSearch('');
      }}
      notFoundContent={found.isFetching ? <Spin size="small" /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('none')} />}
      options={options}
      optionRender={(option) => (
        <Space size={6}>
          {ICONS[props.type]}
          <span>{option.data.label}</span>
          {option.data.item.description && <Typography.Text type="secondary">{option.data.item.description}</Typography.Text>}
        </Space>
      )}
      onChange={(next: string | string[] | undefined) => {
        setSearch('');
        emit(props, toIds(next ?? null), known);
      }}
    />
  );
}

function PickerModal(props: SelectionItemPickerProps) {
  const { t } = useTranslation('selection');
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [draft, setDraft] = useState<string[]>([]);
  const filter = useDeferredValue(search.trim());
  const ids = toIds(props.value);
  const found = useSelectionSearch(props.type, filter, open, props.context);
  const known = useKnownItems(props.type, [...new Set([...ids, ...draft])], found.data, props.context);

  const toggle = (id: string) =>
    setDraft((d) => (props.multiple ? (d.includes(id) ? d.filter((x) => x !== id) : [...d, id]) : [id]));

  return (
    <>
      <Space wrap size={[4, 4]} style={props.style}>
        {ids.map((id) => (
          <Tag
            key={id}
            icon={ICONS[props.type]}
            closable={!props.disabled}
            onClose={(e) => {
              e.preventDefault();
              emit(props, ids.filter((x) => x !== id), known);
            }}
          >
            {known.get(id)?.title ?? '…'}
          </Tag>
        ))}
        <Button
          id={props.id}
          aria-label={props['aria-label']}
          size="small"
          icon={<SearchOutlined />}
          disabled={props.disabled}
          onClick={() => {
            setDraft(ids);
            setSearch('');
            setOpen(true);
          }}
        >
          {ids.length ? t('selected', { count: ids.length }) : (props.placeholder ?? t('browse'))}
        </Button>
      </Space>
      <Modal
        open={open}
        title={t(`title.${props.type}`)}
        okText={t('ok')}
        cancelText={t('cancel')}
        onCancel={() => setOpen(false)}
        onOk={() => {
          emit(props, draft, known);
          setOpen(false);
        }}
        destroyOnHidden
      >
        <Input
          allowClear
          autoFocus
          prefix={<SearchOutlined />}
          placeholder={t(`search.${props.type}`)}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          style={{ marginBottom: 8 }}
        />
        <div style={{ maxHeight: 360, overflow: 'auto' }}>
          <List
            size="small"
            loading={found.isFetching}
            locale={{ emptyText: t('none') }}
            dataSource={found.data ?? []}
            renderItem={(item) => {
              const checked = draft.includes(item.id);
              return (
                <List.Item style={{ cursor: 'pointer' }} onClick={() => toggle(item.id)}>
                  <Space>
                    {props.multiple ? <Checkbox checked={checked} /> : <Radio checked={checked} />}
                    {ICONS[props.type]}
                    <span>{item.title}</span>
                    {item.description && <Typography.Text type="secondary">{item.description}</Typography.Text>}
                  </Space>
                </List.Item>
              );
            }}
          />
        </div>
        {props.multiple && (
          <Space style={{ marginTop: 8 }}>
            <Typography.Text type="secondary">{t('selected', { count: draft.length })}</Typography.Text>
            <Button size="small" type="link" onClick={() => setDraft([])} disabled={!draft.length}>
              {t('clear')}
            </Button>
          </Space>
        )}
      </Modal>
    </>
  );
}
