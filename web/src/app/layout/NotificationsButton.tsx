import { BellOutlined } from '@ant-design/icons';
import type { TNotification, TNotificationType } from '@tessera/core/contracts/notifications';
import { App, Badge, Button, Checkbox, Empty, List, Popover, Spin, Tabs, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useMarkAllRead, useMarkRead, useNotificationList, useUnreadCounts } from '../../modules/notifications/api/notifications.ts';
import { useTodoCount } from '../live-counts.ts';

const TYPES: TNotificationType[] = ['notice', 'message', 'todo'];

function NotificationList({ type, onOpen }: { type: TNotificationType; onOpen: () => void }) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [unreadOnly, setUnreadOnly] = useState(true);
  const list = useNotificationList(type, unreadOnly, true);
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const typeName = t(`notifications.${type}`);
  const todoCount = useTodoCount();
  const open = (n: TNotification) => {
    if (!n.isRead) markRead.mutate(n.id);
    if (n.link) {
      onOpen();
      navigate(n.link);
    }
  };
  return (
    <div className="notification-panel">
      {type === 'todo' && todoCount.data !== undefined ? (
        <div className="notification-todo-summary">
          <Typography.Text data-testid="header-todo-summary">{t('notifications.openTasks', { count: todoCount.data })}</Typography.Text>
          <Button
            size="small"
            type="primary"
            ghost
            onClick={() => {
              onOpen();
              navigate('/flows/assignTask');
            }}
          >
            {t('notifications.openTodo')}
          </Button>
        </div>
      ) : null}
      <div className="notification-toolbar">
        <Checkbox checked={unreadOnly} onChange={(e) => setUnreadOnly(e.target.checked)}>
          {t('notifications.unreadOnly')}
        </Checkbox>
        <Button
          size="small"
          type="link"
          loading={markAll.isPending}
          onClick={() => markAll.mutate(type, { onSuccess: () => message.success(t('notifications.markedAllRead')) })}
        >
          {t('notifications.markAllRead')}
        </Button>
      </div>
      <Spin spinning={list.isLoading}>
        {items.length === 0 && !list.isLoading ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(unreadOnly ? 'notifications.empty' : 'notifications.emptyAll', { type: typeName })} />
        ) : (
          <List
            size="small"
            dataSource={items}
            renderItem={(n) => (
              <List.Item
                className={`notification-item${n.isRead ? '' : ' notification-unread'}`}
                onClick={() => open(n)}
                data-testid="notification-item"
                style={{ cursor: 'pointer' }}
              >
                <List.Item.Meta
                  title={
                    <Typography.Text strong={!n.isRead} ellipsis>
                      {n.title}
                    </Typography.Text>
                  }
                  description={
                    <>
                      {n.content ? <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ marginBottom: 0 }}>{n.content}</Typography.Paragraph> : null}
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {dayjs(n.creationTime).format('YYYY-MM-DD HH:mm')}
                        {n.senderName ? ` · ${t('notifications.from', { name: n.senderName })}` : ''}
                      </Typography.Text>
                    </>
                  }
                />
              </List.Item>
            )}
          />
        )}
      </Spin>
      {list.hasNextPage ? (
        <Button block type="link" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {t('notifications.loadMore')}
        </Button>
      ) : null}
    </div>
  );
}

/** spec §2 header notifications: tabs notice, message and to-do, from the notifications API. */
export function NotificationsButton({ color }: { color?: string }) {
  const { t } = useTranslation('shell');
  const [open, setOpen] = useState(false);
  const counts = useUnreadCounts();
  const total = counts.data?.total ?? 0;
  // The to-do tab counts open to-do tasks where the task centre answers, else unread to-do notices.
  const todoCount = useTodoCount().data;
  const tabCount = (type: TNotificationType) => (type === 'todo' && todoCount !== undefined ? todoCount : counts.data?.[type]);
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="bottomRight"
      destroyOnHidden
      arrow={false}
      content={
        <Tabs
          size="small"
          className="notification-tabs"
          items={TYPES.map((type) => ({
            key: type,
            label: (
              <span data-testid={`notification-tab-${type}`}>
                {t(`notifications.${type}`)}
                {tabCount(type) ? ` (${tabCount(type)})` : ''}
              </span>
            ),
            children: <NotificationList type={type} onOpen={() => setOpen(false)} />,
          }))}
        />
      }
    >
      <Button type="text" aria-label={t('header.notifications')} data-testid="notifications" style={{ color }}>
        <Badge count={total} overflowCount={99} size="small" offset={[4, -2]}>
          <BellOutlined style={{ color, fontSize: 16 }} />
        </Badge>
      </Button>
    </Popover>
  );
}
