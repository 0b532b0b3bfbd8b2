import { useInfiniteQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Space, Spin, Typography } from 'antd';
import type { TQueryViewDataResult } from '@tessera/core/contracts/business-data';
import type { TBusinessRecord, TDataControl } from '@tessera/core/page-definition';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { businessDataKeys, queryViewData, type ViewQuery } from '../api/business-data.ts';
import { controlTitle } from './view-helpers.ts';

/** Fields a card shows under its title. */
const KEY_FIELDS = 3;
const CARD_PAGE = 30;

/**
 * The list on a phone: one card per record — its first field as the title, the next few fields
 * beneath — loaded page by page as the user scrolls (infinite scroll); tap a card to read it.
 */
export function RecordCards({
  query,
  controls,
  text,
  canEdit,
  canDelete,
  onOpen,
  onDelete,
}: {
  query: Omit<ViewQuery, 'SkipCount' | 'MaxResultCount'>;
  controls: TDataControl[];
  /** What a person reads for a field of a row (labels, lookups, formatted numbers and dates). */
  text(control: TDataControl, row: TBusinessRecord, answer: TQueryViewDataResult | undefined): string;
  canEdit: boolean;
  canDelete: boolean;
  onOpen(id: string, view: boolean): void;
  onDelete(id: string): void;
}) {
  const { t, i18n } = useTranslation('businessData');
  const list = useInfiniteQuery({
    queryKey: [...businessDataKeys.list(query.pageId), 'cards', query],
    queryFn: ({ pageParam }) => queryViewData({ ...query, SkipCount: pageParam, MaxResultCount: CARD_PAGE }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.items.length, 0);
      return last.items.length === CARD_PAGE && loaded < last.totalCount ? loaded : undefined;
    },
    retry: false,
  });
  const end = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    const node = end.current;
    if (!node || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    }, { rootMargin: '200px' });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const pages = list.data?.pages ?? [];
  const rows = pages.flatMap((p) => p.items.map((row) => ({ row: row as TBusinessRecord, answer: p })));
  const [titleField, ...rest] = controls;
  const shown = rest.slice(0, KEY_FIELDS);
  const total = pages[0]?.totalCount ?? 0;
  if (list.isLoading) return <Spin style={{ display: 'block', margin: '32px auto' }} />;
  if (!rows.length) return <Empty description={t('empty')} />;
  return (
    <div data-testid="record-cards">
      <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>
        {pages[0]?.totalCountIsEstimate ? t('totalEstimate', { total }) : t('total', { total })}
      </Typography.Text>
      <Space direction="vertical" style={{ width: '100%' }} size={8}>
        {rows.map(({ row, answer }) => (
          <Card
            key={row.Id}
            size="small"
            hoverable
            data-testid="record-card"
            onClick={() => onOpen(row.Id, true)}
            title={titleField ? text(titleField, row, answer) || '—' : undefined}
            actions={[
              <Button key="view" type="link" size="small" onClick={(e) => (e.stopPropagation(), onOpen(row.Id, true))}>{t('view')}</Button>,
              ...(canEdit ? [<Button key="edit" type="link" size="small" onClick={(e) => (e.stopPropagation(), onOpen(row.Id, false))}>{t('edit')}</Button>] : []),
              ...(canDelete ? [<Button key="delete" type="link" size="small" danger onClick={(e) => (e.stopPropagation(), onDelete(row.Id))}>{t('delete')}</Button>] : []),
            ]}
          >
            {shown.map((c) => (
              <div key={c.id} style={{ display: 'flex', gap: 8, lineHeight: '22px' }}>
                <Typography.Text type="secondary" style={{ flex: '0 0 6em' }} ellipsis>{controlTitle(c, i18n.language)}</Typography.Text>
                <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }}>{text(c, row, answer)}</Typography.Text>
              </div>
            ))}
          </Card>
        ))}
      </Space>
      <div ref={end} style={{ height: 1 }} />
      {isFetchingNextPage && <Spin style={{ display: 'block', margin: '12px auto' }} />}
      {!hasNextPage && rows.length > CARD_PAGE && <Typography.Text type="secondary" style={{ display: 'block', textAlign: 'center', margin: 12 }}>{t('allLoaded')}</Typography.Text>}
    </div>
  );
}
