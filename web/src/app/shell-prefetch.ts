import { businessDataKeys, fetchMenu, fetchPageRuntime, firstListQuery, preferencesQuery, viewDataQuery } from '../modules/business-data/api/business-data.ts';
import { publicPacksQuery } from '../modules/localization/api/localization.ts';
import { unreadCountsQuery } from '../modules/notifications/api/notifications.ts';
import { getToken, useSession } from '../shared/auth/session.ts';
import { businessMenusQuery, systemMenusQuery } from './menus/menus-api.ts';
import { queryClient } from './query-client.ts';
import { resolveRoute } from './routes/resolve.ts';
import { currentUserQuery } from './shell-queries.ts';

/**
 * Asks for the shell's first answers (menus, unread counts, language packs and, on a business page,
 * its menu and page definition) before the shell renders: with the same query keys and options
 * the shell uses, so its hooks find them in the cache instead of asking after their first commit.
 * `userIsFresh`: the user object came with the sign-in answer just now (no need to ask again).
 */
export function prefetchShellData(path: string, { userIsFresh = false } = {}) {
  const user = useSession.getState().user;
  if (!user || !getToken()) return;
  const current = currentUserQuery(user.userId);
  if (userIsFresh) queryClient.setQueryData(current.queryKey, user);
  else void queryClient.prefetchQuery(current);
  void queryClient.prefetchQuery(systemMenusQuery(user.userId));
  void queryClient.prefetchQuery(businessMenusQuery(user.userId));
  void queryClient.prefetchQuery(unreadCountsQuery());
  void queryClient.prefetchQuery(publicPacksQuery());

  const resolved = resolveRoute(path);
  const menuId = resolved?.def.name === 'view-params' ? resolved.params.menuChildId : undefined;
  if (menuId) {
    // Same keys as the business-data page (useMenu, usePageRuntime): the menu names the page, the
    // page names its list — its first page of rows and the user's column settings. A failure here
    // is the page's to show when it asks again.
    void (async () => {
      const menu = await queryClient.fetchQuery({ queryKey: businessDataKeys.menu(menuId), queryFn: () => fetchMenu(menuId), retry: false });
      const pageId = menu.pageDefinitionId;
      if (!pageId) return;
      const runtime = await queryClient.fetchQuery({ queryKey: businessDataKeys.runtime(pageId), queryFn: () => fetchPageRuntime(pageId), retry: false });
      void queryClient.prefetchQuery(viewDataQuery(firstListQuery(pageId, runtime.masterViewId)));
      void queryClient.prefetchQuery(preferencesQuery(pageId, runtime.masterViewId));
    })().catch(() => undefined);
  }
}
