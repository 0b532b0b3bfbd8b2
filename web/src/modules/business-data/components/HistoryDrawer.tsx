import { Drawer, Empty, Spin, Table, Tag, Timeline, Typography } from 'antd';
import type { TRecordHistoryEntry } from '@tessera/core/contracts/business-data';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useHistory } from '../api/business-data.ts';

const show = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** A record's history: who, when, and before → after per field (newest first). */
export function HistoryDrawer({ pageId, recordId, open, onClose }: { pageId: string; recordId: string | null; open: boolean; onClose(): void }) {
  const { t } = useTranslation('businessData');
  const history = useHistory(pageId, open ? recordId : null);
  const items = history.data?.items ?? [];
  return (
    <Drawer title={t('history')} open={open} onClose={onClose} width={720} destroyOnHidden>
      {history.isLoading ? (
        <Spin />
      ) : items.length === 0 ? (
        <Empty description={t('historyEmpty')} />
      ) : (
        <Timeline
          items={items.map((entry: TRecordHistoryEntry) => ({
            key: entry.id,
            children: (
              <div data-testid="history-entry">
                <Typography.Text strong>{t(`action.${entry.action}`)}</Typography.Text>{' '}
                <Typography.Text type="secondary">
                  {entry.userName ?? ''} · {dayjs(entry.time).format('YYYY-MM-DD HH:mm:ss')}
                </Typography.Text>
                {entry.changes.length > 0 && (
                  <Table
                    size="small"
                    style={{ marginTop: 6 }}
                    pagination={false}
                    rowKey={(c) => `${c.rowId}|${c.code}`}
                    dataSource={entry.changes}
                    columns={[
                      {
                        key: 'field',
                        title: t('field'),
                        // A line of a child view is named: "明细 第3行 数量", with whether it came or went.
                        render: (_, c) => (
                          <span>
                            {c.viewTitle && <Typography.Text type="secondary">{c.row ? t('historyLine', { view: c.viewTitle, row: c.row }) : c.viewTitle} </Typography.Text>}
                            {c.title || c.code}
                            {c.line && entry.action === 'Updated' && (
                              <Tag color={c.line === 'added' ? 'green' : 'red'} style={{ marginInlineStart: 6 }}>
                                {t(c.line === 'added' ? 'lineAdded' : 'lineRemoved')}
                              </Tag>
                            )}
                          </span>
                        ),
                      },
                      // A field with labels (options, dictionaries, lookups) shows them, not the stored codes.
                      { key: 'before', title: t('before'), render: (_, c) => show(c.beforeText ?? c.before) },
                      { key: 'after', title: t('after'), render: (_, c) => show(c.afterText ?? c.after) },
                    ]}
                  />
                )}
              </div>
            ),
          }))}
        />
      )}
    </Drawer>
  );
}
