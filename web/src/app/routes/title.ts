import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { create } from 'zustand';
import { localized } from '../../shared/i18n/i18n.ts';
import { storedMenuTitle } from '../menus/menu-model.ts';
import { resolveRoute } from './resolve.ts';
import { REDIRECTS } from './route-table.ts';

/** The unread notification count the shell learns (spec §9: title prefix `(n条消息)`). */
export const useUnreadTitleCount = create<{ count: number; set(count: number): void }>((set) => ({
  count: 0,
  set: (count) => set({ count }),
}));

const PUBLIC_TITLES: Record<string, string> = {
  '/login': 'menu:login',
  '/403': 'menu:forbidden',
  '/500': 'menu:serverError',
};

/** The title of the page at `pathname`: the route's title, or the stored business-menu title. */
export function usePageTitle(pathname: string): string {
  const { t, i18n } = useTranslation();
  // A parent path that redirects (`/builtIn`) is titled as its target while it redirects: never
  // "page not found" for a moment.
  const resolved = resolveRoute(REDIRECTS.find((r) => r.path === pathname)?.to ?? pathname);
  if (resolved?.def.name === 'view-params' && resolved.params.menuChildId) {
    const title = storedMenuTitle(resolved.params.menuChildId);
    if (title) return localized(title, i18n.language);
  }
  const key = resolved?.def.title ?? PUBLIC_TITLES[pathname] ?? 'menu:notFound';
  return t(key, { defaultValue: key });
}

/** spec §2: document.title = title + suffix, with the unread-count prefix when there are messages. */
export function useDocumentTitle() {
  const { pathname } = useLocation();
  const { t } = useTranslation('shell');
  const title = usePageTitle(pathname);
  const count = useUnreadTitleCount((s) => s.count);
  useEffect(() => {
    const prefix = count > 0 ? `${t('unreadPrefix', { count })} ` : '';
    document.title = `${prefix}${title} - ${t('titleSuffix')}`;
  }, [title, count, t]);
}
