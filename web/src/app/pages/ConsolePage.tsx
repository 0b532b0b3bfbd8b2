import { AppstoreOutlined, BellOutlined, CarryOutOutlined } from '@ant-design/icons';
import { useDisplayName } from '../../shared/auth/display-name.ts';
import { Card, Col, Empty, List, Row, Statistic, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useUnreadCounts } from '../../modules/notifications/api/notifications.ts';
import { useSession } from '../../shared/auth/session.ts';
import { localized } from '../../shared/i18n/i18n.ts';
import { MenuIcon } from '../../shared/components/MenuIcon.tsx';
import { recentVisits } from '../layout/recent-visits.ts';
import { menuLeaves, menuTitle, pageShortcuts, storedMenuTitle } from '../menus/menu-model.ts';
import { useShellMenus } from '../menus/menus-api.ts';
import { consoleSources } from '../console-sources.ts';
import { useTodoCount } from '../live-counts.ts';
import { DASHBOARD_PATH } from '../routes/route-table.ts';

function greetingKey(hour: number): string {
  if (hour < 5) return 'night';
  if (hour < 9) return 'morning';
  if (hour < 11) return 'forenoon';
  if (hour < 13) return 'noon';
  if (hour < 18) return 'afternoon';
  return 'evening';
}

/** Today's date in the page's language (Intl knows every offered locale; dayjs may still be loading its). */
function todayText(language: string): string {
  try {
    return new Intl.DateTimeFormat(language, { dateStyle: 'full' }).format(new Date());
  } catch {
    return dayjs().format('YYYY-MM-DD');
  }
}

/** The home page: greeting, organisation unit, real counts, recently visited pages, business-menu shortcuts. */
export default function ConsolePage() {
  const { t, i18n } = useTranslation('shell');
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const counts = useUnreadCounts();
  // To-do tasks come from the workflow module; without it there is no count to show (not a 0).
  const todoSource = consoleSources.todoTasks;
  const todo = useTodoCount();
  const menus = useShellMenus();
  // Every business menu the user has counts; shortcuts only to menus that open a page (issue 28).
  const leaves = useMemo(() => menuLeaves(menus.businessNodes), [menus.businessNodes]);
  const shortcuts = useMemo(() => pageShortcuts(menus.businessNodes), [menus.businessNodes]);
  const recent = user ? recentVisits(user.userId).filter((v) => v.path !== DASHBOARD_PATH) : [];
  const name = useDisplayName();
  const count = (value: number | undefined) => (counts.isError ? t('console.countFailed') : value);

  const recentTitle = (v: (typeof recent)[number]) => {
    const stored = v.menuId ? storedMenuTitle(v.menuId) : null;
    return stored ? localized(stored, i18n.language) : t(v.title, { ns: 'menu', defaultValue: v.title });
  };

  return (
    <div className="console-page">
      <Card variant="borderless" className="console-welcome">
        <Typography.Title level={3} data-testid="greeting" style={{ marginTop: 0 }}>
          {t(`console.greeting.${greetingKey(new Date().getHours())}`, { name })}
        </Typography.Title>
        <Typography.Text type="secondary">
          {t('console.orgUnitLabel')}<span data-testid="org-unit">{user?.organizationUnitName || t('console.noOrgUnit')}</span>
          <span className="console-date">{t('console.today', { date: todayText(i18n.language) })}</span>
        </Typography.Text>
      </Card>

      <Row gutter={[16, 16]} className="console-stats">
        <Col xs={24} sm={8}>
          {todoSource ? (
            <Card variant="borderless" hoverable onClick={() => navigate('/flows/assignTask')}>
              <Statistic
                title={t('console.todo')}
                value={todo.isError ? t('console.countFailed') : todo.data}
                loading={todo.isLoading}
                prefix={<CarryOutOutlined />}
                data-testid="todo-count"
              />
            </Card>
          ) : (
            <Card variant="borderless">
              <Statistic title={t('console.todo')} value={t('console.todoUnavailable')} prefix={<CarryOutOutlined />} data-testid="todo-count" />
              <Typography.Text type="secondary" className="console-stat-note" data-testid="todo-unavailable">
                {t('console.todoUnavailableHint')}
              </Typography.Text>
            </Card>
          )}
        </Col>
        <Col xs={24} sm={8}>
          <Card variant="borderless">
            <Statistic title={t('console.unread')} value={count(counts.data?.total)} loading={counts.isLoading} prefix={<BellOutlined />} data-testid="unread-count" />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card variant="borderless">
            <Statistic
              title={t('console.businessMenus')}
              value={menus.businessError ? t('console.countFailed') : leaves.length}
              loading={menus.isLoading}
              prefix={<AppstoreOutlined />}
              data-testid="business-menu-count"
            />
          </Card>
        </Col>
      </Row>

      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          <Card variant="borderless" title={t('console.recent')} className="console-card">
            {recent.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('console.recentEmpty')} />
            ) : (
              <List
                size="small"
                dataSource={recent}
                data-testid="recent-visits"
                renderItem={(v) => (
                  <List.Item extra={<Typography.Text type="secondary">{dayjs(v.time).format('MM-DD HH:mm')}</Typography.Text>}>
                    <Link to={v.fullPath}>
                      <MenuIcon name={v.icon ?? 'ClockCircleOutlined'} business={Boolean(v.menuId)} /> {recentTitle(v)}
                    </Link>
                  </List.Item>
                )}
              />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card variant="borderless" title={t('console.shortcuts')} className="console-card">
            {shortcuts.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={menus.isLoading ? null : t('console.shortcutsEmpty')} />
            ) : (
              <div className="console-shortcuts" data-testid="business-shortcuts">
                {shortcuts.map(({ node, trail }) => (
                  <Link key={node.path} to={node.path} className="console-shortcut" title={[...trail, node].map((n) => menuTitle(n, t, i18n.language)).join(' / ')}>
                    <span className="console-shortcut-icon">
                      <MenuIcon name={node.icon ?? 'AppstoreOutlined'} business />
                    </span>
                    <span>{menuTitle(node, t, i18n.language)}</span>
                  </Link>
                ))}
              </div>
            )}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
