import { Drawer, Layout, theme } from 'antd';
import { useDisplayName } from '../../shared/auth/display-name.ts';
import { useMemo } from 'react';
import { Outlet, useLocation } from 'react-router';
import { PasswordModal } from '../../modules/auth/components/PasswordModal.tsx';
import { LanguageDictionarySync } from '../../modules/localization/components/LanguageDictionarySync.tsx';
import { useSession } from '../../shared/auth/session.ts';
import { useDevice } from '../hooks/useDevice.ts';
import { useShellMenus } from '../menus/menus-api.ts';
import { resolveRoute } from '../routes/resolve.ts';
import { effective, useSettings } from '../settings/settings-store.ts';
import { SettingsDrawer } from '../settings/SettingsDrawer.tsx';
import { TabsBar } from '../tabs/TabsBar.tsx';
import { activeHeadKey, HEADER_HEIGHT, HeaderBar } from './HeaderBar.tsx';
import { useLayout } from './layout-store.ts';
import { Logo } from './Logo.tsx';
import { MenuSearch } from './MenuSearch.tsx';
import { useCurrentUserRefresh, useDeviceLayout, useHeaderAutoHide, useTabsForRoute, useUnreadTitle } from './shell-effects.ts';
import { SiderMenu } from './SiderMenu.tsx';
import { Watermark } from './Watermark.tsx';
import { useLiveCounts } from '../live-counts.ts';

/** spec §2: sider width 200, collapsed 80. */
export const SIDER_WIDTH = 200;
export const SIDER_COLLAPSED_WIDTH = 80;
const TABS_HEIGHT = 40;

/** The page area: remounts on reload (tabs, reload button) and, when asked, on a parameter change. */
function PageOutlet() {
  const { pathname } = useLocation();
  const reloadKey = useLayout((s) => s.reloadKey);
  const forceUpdate = useSettings((s) => s.settings.sameRouteForceUpdate);
  const name = resolveRoute(pathname)?.def.name ?? pathname;
  return (
    <div key={`${reloadKey}:${forceUpdate ? pathname : name}`} className="shell-page" data-testid="shell-page" data-reload={reloadKey}>
      <Outlet />
    </div>
  );
}

/** The signed-in frame (spec §2 shell): sider, header, tabs, page, settings drawer, watermark. */

export default function AppLayout() {
  const device = useDevice();
  const { pathname } = useLocation();
  const { token } = theme.useToken();
  const settings = useSettings((s) => s.settings);
  const user = useCurrentUserRefresh();
  const displayName = useDisplayName();
  const menus = useShellMenus();
  const collapsed = useLayout((s) => s.collapsed);
  const mobileMenuOpen = useLayout((s) => s.mobileMenuOpen);
  const setMobileMenuOpen = useLayout((s) => s.setMobileMenuOpen);
  const passwordOpen = useLayout((s) => s.passwordOpen);
  const setPasswordOpen = useLayout((s) => s.setPasswordOpen);
  const headerHidden = useLayout((s) => s.headerHidden);
  useDeviceLayout(device);
  useTabsForRoute();
  useHeaderAutoHide();
  useUnreadTitle();
  useLiveCounts();

  const mobile = device === 'Mobile';
  const resolved = resolveRoute(pathname);
  const hideSider = Boolean(resolved?.def.hideSider);
  const headerMenu = settings.headerMenu && !mobile;
  // Head menu on: the header carries the top-level groups, the sider the active group's children.
  const activeGroup = headerMenu ? menus.sider.find((g) => g.path === activeHeadKey(menus.sider, pathname)) : undefined;
  const siderNodes = useMemo(
    () => (headerMenu ? (activeGroup?.children ?? (activeGroup ? [activeGroup] : menus.sider)) : menus.sider),
    [headerMenu, activeGroup, menus.sider],
  );
  const searchNodes = useMemo(() => [...menus.header.filter((h) => h.path !== '/'), ...menus.sider], [menus.header, menus.sider]);

  const headerFix = settings.headerFix;
  const stick = effective(settings, 'headerStick') && !mobile;
  const tabsOn = settings.tabs;
  const tabsWithHeader = tabsOn && effective(settings, 'tabsFix') && headerFix;
  const showSider = !mobile && !hideSider;
  const siderWidth = collapsed ? SIDER_COLLAPSED_WIDTH : SIDER_WIDTH;
  const topOffset = stick && headerFix ? HEADER_HEIGHT : 0;

  const header = (
    <HeaderBar
      device={device}
      header={menus.header}
      sider={menus.sider}
      headGroups={headerMenu ? menus.sider : []}
      showLogo={stick || !showSider}
    />
  );
  const top = (
    <div
      className={`shell-top${headerHidden ? ' shell-top-hidden' : ''}`}
      style={{ position: headerFix ? 'sticky' : 'relative', top: 0, zIndex: 100 }}
      data-testid="shell-top"
    >
      {header}
      {tabsWithHeader && !stick ? <TabsBar /> : null}
    </div>
  );

  return (
    <Layout className={`shell shell-${device.toLowerCase()}`} data-device={device} style={{ minHeight: '100vh' }}>
      {stick ? top : null}
      <Layout hasSider={showSider}>
        {showSider ? (
          <Layout.Sider
            width={SIDER_WIDTH}
            collapsedWidth={SIDER_COLLAPSED_WIDTH}
            collapsed={collapsed}
            trigger={null}
            theme={settings.siderTheme}
            className="shell-sider"
            data-testid="shell-sider"
            style={
              settings.siderFix
                ? { position: 'sticky', top: topOffset, height: `calc(100vh - ${topOffset}px)`, overflow: 'auto', alignSelf: 'flex-start' }
                : { minHeight: '100vh' }
            }
          >
            {stick ? null : (
              <div className="shell-sider-logo" style={{ height: HEADER_HEIGHT, width: siderWidth }}>
                <Logo compact={collapsed} color={settings.siderTheme === 'dark' ? '#fff' : token.colorText} />
              </div>
            )}
            <SiderMenu
              nodes={siderNodes}
              collapsed={collapsed}
              theme={settings.siderTheme}
              accordion={settings.menuAccordion}
              showCollapseMenuTitle={settings.showCollapseMenuTitle}
            />
          </Layout.Sider>
        ) : null}
        <Layout style={{ minWidth: 0 }}>
          {stick ? null : top}
          {stick && tabsWithHeader ? (
            <div style={{ position: 'sticky', top: HEADER_HEIGHT, zIndex: 99 }} className={headerHidden ? 'shell-top-hidden' : undefined}>
              <TabsBar />
            </div>
          ) : null}
          {tabsOn && !tabsWithHeader ? (
            <div style={{ position: effective(settings, 'tabsFix') ? 'sticky' : 'relative', top: 0, zIndex: 99, height: TABS_HEIGHT }}>
              <TabsBar />
            </div>
          ) : null}
          <Layout.Content className="shell-content">
            <PageOutlet />
          </Layout.Content>
        </Layout>
      </Layout>
      {mobile ? (
        <Drawer
          placement="left"
          open={mobileMenuOpen}
          onClose={() => setMobileMenuOpen(false)}
          size={SIDER_WIDTH + 40}
          closable={false}
          rootClassName="shell-mobile-drawer"
          styles={{ body: { padding: 0, background: settings.siderTheme === 'dark' ? '#001529' : token.colorBgContainer } }}
          data-testid="mobile-menu-drawer"
        >
          <div className="shell-sider-logo" style={{ height: HEADER_HEIGHT }}>
            <Logo color={settings.siderTheme === 'dark' ? '#fff' : token.colorText} />
          </div>
          <SiderMenu
            nodes={menus.sider}
            collapsed={false}
            theme={settings.siderTheme}
            accordion={settings.menuAccordion}
            showCollapseMenuTitle={false}
            immediate
            onNavigate={() => setMobileMenuOpen(false)}
          />
        </Drawer>
      ) : null}
      <SettingsDrawer />
      <MenuSearch nodes={searchNodes} />
      <PasswordModal open={passwordOpen} onClose={() => setPasswordOpen(false)} />
      <LanguageDictionarySync />
      {settings.watermark && user ? <Watermark text={displayName || user.userName} dark={settings.darkTheme} /> : null}
    </Layout>
  );
}
