import { BuildOutlined, MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined, ReloadOutlined, SearchOutlined, SkinOutlined } from '@ant-design/icons';
import { Button, Menu, theme, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { isAdminCookie } from '../../shared/auth/session.ts';
import { HelpLink } from '../../shared/components/HelpLink.tsx';
import { menuTitle, type MenuNode } from '../menus/menu-model.ts';
import { resolveRoute } from '../routes/resolve.ts';
import { effective, useSettings } from '../settings/settings-store.ts';
import type { Device } from '../hooks/useDevice.ts';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import { FullscreenButton, LanguageSelector, LogIndicator } from './HeaderWidgets.tsx';
import { useLayout } from './layout-store.ts';
import { Logo } from './Logo.tsx';
import { MenuIcon } from '../../shared/components/MenuIcon.tsx';
import { NotificationsButton } from './NotificationsButton.tsx';
import { UserMenu } from './UserMenu.tsx';

/** spec §2: header height 64. */
export const HEADER_HEIGHT = 64;

/** The first page under a menu node (a group opens its first leaf). */
export function firstLeafPath(node: MenuNode): string {
  if (node.jumpTo) return node.jumpTo;
  if (!node.children?.length) return node.path;
  return firstLeafPath(node.children[0]!);
}

/** Which head-menu entry is active: its own path, or the area the current page lies in. */
export function activeHeadKey(entries: MenuNode[], pathname: string): string | undefined {
  const inside = (node: MenuNode): boolean => node.path === pathname || Boolean(node.children?.some(inside));
  const area = entries.find((e) => e.path !== '/' && inside(e));
  if (area) return area.path;
  return entries.find((e) => e.path === '/')?.path;
}

interface Props {
  device: Device;
  header: MenuNode[];
  sider: MenuNode[];
  /** Top-level sider groups shown in the header (headerMenu on). */
  headGroups: MenuNode[];
  showLogo: boolean;
}

export function HeaderBar({ device, header, sider, headGroups, showLogo }: Props) {
  const { t, i18n } = useTranslation('shell');
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const helpKey = resolveRoute(pathname)?.def.name.toLowerCase();
  const settings = useSettings((s) => s.settings);
  const collapsed = useLayout((s) => s.collapsed);
  const setCollapsed = useLayout((s) => s.setCollapsed);
  const setMobileMenuOpen = useLayout((s) => s.setMobileMenuOpen);
  const setSettingsOpen = useLayout((s) => s.setSettingsOpen);
  const setSearchOpen = useLayout((s) => s.setSearchOpen);
  const reloadPage = useLayout((s) => s.reloadPage);
  const ref = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(0);
  const mobile = device === 'Mobile';

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    setWidth(el.clientWidth);
    return () => observer.disconnect();
  }, []);

  const headerTheme = settings.headerTheme;
  const background = headerTheme === 'primary' ? token.colorPrimary : headerTheme === 'dark' ? '#001529' : token.colorBgContainer;
  const color = headerTheme === 'light' ? token.colorText : '#ffffff';
  const headEntries = [...header, ...headGroups];
  const showBreadcrumb = !mobile && effective(settings, 'showBreadcrumb');

  return (
    <header
      ref={ref}
      className={`shell-header shell-header-${headerTheme}`}
      data-testid="shell-header"
      style={{ height: HEADER_HEIGHT, background, color, borderBottom: headerTheme === 'light' ? `1px solid ${token.colorBorderSecondary}` : 'none' }}
    >
      <div className="shell-header-left">
        {mobile ? (
          <Button type="text" icon={<MenuOutlined />} aria-label={t('header.openMenu')} data-testid="mobile-menu-button" onClick={() => setMobileMenuOpen(true)} style={{ color }} />
        ) : null}
        {showLogo || mobile ? <Logo compact={mobile} color={color} /> : null}
        {!mobile && settings.showSiderCollapse ? (
          <Tooltip title={collapsed ? t('header.expand') : t('header.collapse')}>
            <Button
              type="text"
              aria-label={collapsed ? t('header.expand') : t('header.collapse')}
              data-testid="sider-toggle"
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={() => setCollapsed(!collapsed)}
              style={{ color }}
            />
          </Tooltip>
        ) : null}
        {settings.showReload ? (
          <Tooltip title={t('header.reload')}>
            <Button type="text" aria-label={t('header.reload')} data-testid="reload-page" icon={<ReloadOutlined />} onClick={reloadPage} style={{ color }} />
          </Tooltip>
        ) : null}
        {!mobile && headEntries.length ? (
          <Menu
            mode="horizontal"
            className="shell-head-menu"
            theme={headerTheme === 'light' ? 'light' : 'dark'}
            selectedKeys={[activeHeadKey(headEntries, pathname) ?? '']}
            items={headEntries.map((node) => ({
              key: node.path,
              icon: <MenuIcon name={node.icon} business={node.businessIcon} />,
              label: menuTitle(node, t, i18n.language),
            }))}
            onClick={({ key }) => {
              const node = headEntries.find((n) => n.path === key);
              if (node) navigate(firstLeafPath(node));
            }}
            // Only the fixed entries (home, system): they always fit, so no overflow measuring
            // (a content-sized horizontal menu would otherwise fold them into "…").
            disabledOverflow={!settings.headerMenu}
            style={{ background: 'transparent', borderBottom: 'none', lineHeight: `${HEADER_HEIGHT - 2}px`, minWidth: 0, flex: settings.headerMenu ? '1 1 auto' : '0 0 auto' }}
          />
        ) : null}
        {showBreadcrumb ? <Breadcrumbs nodes={sider} showIcon={effective(settings, 'showBreadcrumbIcon')} headerWidth={width} /> : null}
      </div>
      <div className="shell-header-right">
        <Tooltip title={t('header.search')}>
          <Button type="text" aria-label={t('header.search')} data-testid="menu-search" icon={<SearchOutlined />} onClick={() => setSearchOpen(true)} style={{ color }} />
        </Tooltip>
        {helpKey ? (
          // Every page links its guide: the help document whose key is the route name (spec §2).
          <Tooltip title={t('header.help')}>
            <span data-testid="page-help">
              <HelpLink docKey={helpKey}>{''}</HelpLink>
            </span>
          </Tooltip>
        ) : null}
        {!mobile && isAdminCookie() ? (
          <Tooltip title={t('header.design')}>
            <Button type="text" aria-label={t('header.design')} data-testid="jump-to-design" icon={<BuildOutlined />} onClick={() => navigate('/design')} style={{ color }} />
          </Tooltip>
        ) : null}
        <LogIndicator color={color} />
        {!mobile ? <FullscreenButton color={color} /> : null}
        <NotificationsButton color={color} />
        {settings.showI18n ? <LanguageSelector color={color} /> : null}
        <UserMenu mobile={mobile} color={color} />
        <Tooltip title={t('header.settings')}>
          <Button type="text" aria-label={t('header.settings')} data-testid="open-settings" icon={<SkinOutlined />} onClick={() => setSettingsOpen(true)} style={{ color }} />
        </Tooltip>
      </div>
    </header>
  );
}

