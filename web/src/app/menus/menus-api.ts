import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TBusinessMenuList } from '@tessera/core/contracts/business-menus';
import type { TMenuList } from '@tessera/core/contracts/menus';
import { useMemo } from 'react';
import { api, ApiError } from '../../shared/api/client.ts';
import { useSession } from '../../shared/auth/session.ts';
import { fromBusinessMenus, fromSystemMenu, storeMenuTitles, type MenuNode } from './menu-model.ts';

/** spec §7: `POST /api/system/menu/list` → header + sider, already filtered by the caller's access. */
export const fetchSystemMenus = () => api.post<TMenuList>('/system/menu/list');

/**
 * spec §7: the caller's business menus (SkipCount 0, MaxResultCount 100). A server without the
 * business-menu module answers 404: no business menus, no error toast.
 */
export async function fetchRuntimeBusinessMenus(): Promise<TBusinessMenuList> {
  try {
    return await api.get<TBusinessMenuList>('/app/business-menu', { SkipCount: 0, MaxResultCount: 100 }, { silent: true });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return { items: [], totalCount: 0 };
    throw err;
  }
}

/** The shell's queries (also prefetched at sign-in and start-up: shell-prefetch.ts). */
export const systemMenusQuery = (userId: string | null) =>
  queryOptions({ queryKey: ['system-menus', userId], queryFn: fetchSystemMenus, enabled: Boolean(userId), staleTime: 5 * 60_000 });

// Same key as the business-menu module's runtime list, so its changes refresh the sider.
export const businessMenusQuery = (userId: string | null) =>
  queryOptions({
    queryKey: ['business-menus', 'mine'],
    queryFn: async () => {
      const list = await fetchRuntimeBusinessMenus();
      storeMenuTitles(list.items);
      return list;
    },
    enabled: Boolean(userId),
  });

export function useShellMenus() {
  const userId = useSession((s) => s.user?.userId ?? null);
  const system = useQuery(systemMenusQuery(userId));
  const business = useQuery(businessMenusQuery(userId));
  return useMemo(() => {
    const header = (system.data?.header ?? []).map(fromSystemMenu);
    const systemSider = (system.data?.sider ?? []).map(fromSystemMenu);
    const businessNodes = fromBusinessMenus(business.data?.items ?? []);
    // Business menus sit right after the dashboard: they are the staff's daily work.
    const [first, ...rest] = systemSider;
    const sider: MenuNode[] = first?.path === '/dashboard' ? [first, ...businessNodes, ...rest] : [...businessNodes, ...systemSider];
    return {
      header,
      sider,
      businessNodes,
      isLoading: system.isLoading,
      isError: system.isError,
      businessError: business.isError,
    };
  }, [system.data, system.isLoading, system.isError, business.data, business.isError]);
}
