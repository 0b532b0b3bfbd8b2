import { useQuery } from '@tanstack/react-query';
import type { TCurrentUser } from '@tessera/core/contracts/auth';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { hasAccess, useSession } from '../../shared/auth/session.ts';
import { useUnreadCounts } from '../../modules/notifications/api/notifications.ts';
import type { Device } from '../hooks/useDevice.ts';
import { throttle } from '../hooks/useDevice.ts';
import { resolveRoute } from '../routes/resolve.ts';
import { currentUserQuery } from '../shell-queries.ts';
import { useUnreadTitleCount } from '../routes/title.ts';
import { effective, useSettings } from '../settings/settings-store.ts';
import { useTabs, type OpenTab } from '../tabs/tabs-store.ts';
import { recordRecentVisit } from './recent-visits.ts';
import { useLayout } from './layout-store.ts';

/** spec §9: the header hides after scrolling down past 300px. */
export const HEADER_HIDE_THRESHOLD = 300;

/** Refreshes the signed-in user (access may have changed since sign-in). */
export function useCurrentUserRefresh() {
  const user = useSession((s) => s.user);
  const setUser = useSession((s) => s.setUser);
  const query = useQuery(currentUserQuery(user?.userId));
  useEffect(() => {
    // Only a fresher copy of the same user (never a cached answer for someone else).
    if (!query.data || query.data.userId !== user?.userId) return;
    if (JSON.stringify(query.data) !== JSON.stringify(user)) setUser(query.data);
    // Only when the server's answer changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query.data]);
  return user;
}

/** A tab's route must still be open to the user (spec §2: dropped on load otherwise). */
export const canOpenTab = (user: TCurrentUser | null) => (tab: OpenTab) => {
  const resolved = resolveRoute(tab.path);
  return Boolean(resolved) && resolved!.def.tabs !== false && hasAccess(user, resolved!.auth);
};

/** Loads the user's tabs, opens or updates the current one, and records recent visits. */
export function useTabsForRoute() {
  const location = useLocation();
  const user = useSession((s) => s.user);
  const load = useTabs((s) => s.load);
  const open = useTabs((s) => s.open);
  const loadedFor = useTabs((s) => s.userId);
  const accessKey = user ? `${user.userId}:${user.access.join(',')}` : '';

  useEffect(() => {
    if (user) load(user.userId, canOpenTab(user));
    // Reload only when the user or their access changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [accessKey]);

  useEffect(() => {
    if (!user || loadedFor !== user.userId) return;
    const resolved = resolveRoute(location.pathname);
    if (!resolved || resolved.def.tabs === false || resolved.def.layout !== 'shell' || !hasAccess(user, resolved.auth)) return;
    const query = Object.fromEntries(new URLSearchParams(location.search));
    const params = Object.fromEntries(Object.entries(resolved.params).filter((e): e is [string, string] => e[1] !== undefined));
    const menuId = resolved.def.name === 'view-params' ? params.menuChildId : undefined;
    const tab: OpenTab = {
      name: resolved.def.name,
      path: location.pathname,
      fullPath: `${location.pathname}${location.search}`,
      params,
      query,
      meta: {
        title: resolved.def.title,
        closable: resolved.def.closable !== false,
        mainShow: !resolved.def.hideSider,
        icon: resolved.def.icon,
        menuId,
      },
    };
    open(tab);
    recordRecentVisit(user.userId, { path: location.pathname, fullPath: tab.fullPath, title: tab.meta.title, icon: tab.meta.icon, menuId });
  }, [location.pathname, location.search, user, loadedFor, open]);
}

/** spec §4: tablet collapses the sider, desktop expands it; mobile closes the drawer on route change. */
export function useDeviceLayout(device: Device) {
  const setCollapsed = useLayout((s) => s.setCollapsed);
  const setMobileMenuOpen = useLayout((s) => s.setMobileMenuOpen);
  const { pathname } = useLocation();
  useEffect(() => {
    if (device === 'Tablet') setCollapsed(true);
    if (device === 'Desktop') setCollapsed(false);
    if (device !== 'Mobile') setMobileMenuOpen(false);
  }, [device, setCollapsed, setMobileMenuOpen]);
  useEffect(() => {
    setMobileMenuOpen(false);
  }, [pathname, setMobileMenuOpen]);
}

/** spec §4: with headerHide and headerFix, the header hides scrolling down past 300px and returns scrolling up. */
export function useHeaderAutoHide() {
  const settings = useSettings((s) => s.settings);
  const setHidden = useLayout((s) => s.setHeaderHidden);
  const enabled = effective(settings, 'headerHide');
  const last = useRef(0);
  useEffect(() => {
    if (!enabled) {
      setHidden(false);
      return;
    }
    last.current = window.scrollY;
    const onScroll = throttle(() => {
      const y = window.scrollY;
      if (y > last.current && y > HEADER_HIDE_THRESHOLD) setHidden(true);
      else if (y < last.current) setHidden(false);
      last.current = y;
    }, 100);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      onScroll.cancel();
      window.removeEventListener('scroll', onScroll);
      setHidden(false);
    };
  }, [enabled, setHidden]);
}

/** spec §9: `(n条消息)` in the document title while there are unread notifications. */
export function useUnreadTitle() {
  const counts = useUnreadCounts();
  const set = useUnreadTitleCount((s) => s.set);
  const total = counts.data?.total ?? 0;
  useEffect(() => {
    set(total);
    return () => set(0);
  }, [total, set]);
}
