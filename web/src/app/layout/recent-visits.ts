import { appStorage } from '../../shared/storage.ts';

/** Recently visited pages per user (the console lists them), newest first. */
export interface RecentVisit {
  path: string;
  fullPath: string;
  /** An i18n key, or empty for business menus (title from `menuId`). */
  title: string;
  icon?: string;
  menuId?: string;
  time: string;
}

const MAX_RECENT = 8;
const key = (userId: string) => `tessera.recent.${userId}`;

export function recentVisits(userId: string): RecentVisit[] {
  try {
    const list = JSON.parse(appStorage.getItem(key(userId)) ?? '[]') as RecentVisit[];
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

export function recordRecentVisit(userId: string, visit: Omit<RecentVisit, 'time'>) {
  const list = [{ ...visit, time: new Date().toISOString() }, ...recentVisits(userId).filter((v) => v.path !== visit.path)].slice(0, MAX_RECENT);
  appStorage.setItem(key(userId), JSON.stringify(list));
}
