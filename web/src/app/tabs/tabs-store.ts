import { create } from 'zustand';
import { DASHBOARD_PATH } from '../routes/route-table.ts';
import { appStorage } from '../../shared/storage.ts';

/** spec §3 open tab: name, fullPath, params, query, meta (title, closable, mainShow, isReplace). */
export interface OpenTab {
  name: string;
  /** The pathname: one tab per path (spec §4: opening an existing path updates it). */
  path: string;
  fullPath: string;
  params: Record<string, string>;
  query: Record<string, string>;
  meta: {
    /** An i18n key (`menu:user`) or, for business menus, empty with `menuId` set. */
    title: string;
    closable: boolean;
    mainShow?: boolean;
    isReplace?: boolean;
    icon?: string;
    /** Business-menu tabs take their title from the stored menu list (spec §2). */
    menuId?: string;
  };
}

export const HOME_TAB: OpenTab = {
  name: 'dashboard-console',
  path: DASHBOARD_PATH,
  fullPath: DASHBOARD_PATH,
  params: {},
  query: {},
  meta: { title: 'menu:console', closable: false, icon: 'HomeOutlined' },
};

const storageKey = (userId: string) => `tessera.tabs.${userId}`;

interface TabsState {
  userId: string | null;
  tabs: OpenTab[];
  /** Loads the user's tabs, dropping those whose route the user may no longer open. */
  load(userId: string, canOpen: (tab: OpenTab) => boolean): void;
  open(tab: OpenTab): void;
  /** Closes one tab; returns where to go when it was the current one. */
  close(path: string, currentPath: string): string | null;
  closeLeft(path: string, currentPath: string): string | null;
  closeRight(path: string, currentPath: string): string | null;
  closeOther(path: string, currentPath: string): string | null;
  closeAll(): string;
  move(fromPath: string, toPath: string): void;
}

function normalise(tabs: OpenTab[]): OpenTab[] {
  // spec §4: the first tab (the dashboard) is always kept, first.
  const rest = tabs.filter((t) => t.path !== HOME_TAB.path);
  const home = tabs.find((t) => t.path === HOME_TAB.path);
  return [{ ...HOME_TAB, ...home, meta: { ...HOME_TAB.meta, closable: false } }, ...rest];
}

export const useTabs = create<TabsState>((set, get) => {
  const commit = (tabs: OpenTab[]) => {
    const next = normalise(tabs);
    const { userId } = get();
    if (userId) appStorage.setItem(storageKey(userId), JSON.stringify(next));
    set({ tabs: next });
    return next;
  };
  /** Where to go when the current tab disappears: the tab at `fallback`, if it still exists. */
  const afterClose = (remaining: OpenTab[], currentPath: string, fallback: string): string | null =>
    remaining.some((t) => t.path === currentPath) ? null : (remaining.find((t) => t.path === fallback)?.fullPath ?? remaining[0]!.fullPath);

  return {
    userId: null,
    tabs: [HOME_TAB],
    load(userId, canOpen) {
      let saved: OpenTab[] = [];
      try {
        const parsed = JSON.parse(appStorage.getItem(storageKey(userId)) ?? '[]') as unknown;
        if (Array.isArray(parsed)) saved = parsed.filter((t): t is OpenTab => Boolean(t && typeof t.path === 'string' && typeof t.fullPath === 'string' && t.meta));
      } catch {
        saved = [];
      }
      set({ userId });
      commit(saved.filter(canOpen));
    },
    open(tab) {
      const { tabs } = get();
      const index = tabs.findIndex((t) => t.path === tab.path);
      if (index === -1) commit([...tabs, tab]);
      else {
        const current = tabs[index]!;
        const updated = { ...current, ...tab, meta: { ...current.meta, ...tab.meta, closable: current.path === HOME_TAB.path ? false : tab.meta.closable } };
        if (JSON.stringify(updated) !== JSON.stringify(current)) commit(tabs.map((t, i) => (i === index ? updated : t)));
      }
    },
    close(path, currentPath) {
      const { tabs } = get();
      const index = tabs.findIndex((t) => t.path === path);
      if (index <= 0 || !tabs[index]!.meta.closable) return null;
      const remaining = commit(tabs.filter((t) => t.path !== path));
      if (path !== currentPath) return null;
      // spec §4: the previous tab if it was the last one, otherwise the next one.
      const wasLast = index === tabs.length - 1;
      return (wasLast ? remaining[index - 1] : remaining[index])!.fullPath;
    },
    closeLeft(path, currentPath) {
      const { tabs } = get();
      const index = tabs.findIndex((t) => t.path === path);
      const remaining = commit(tabs.filter((t, i) => i >= index || !t.meta.closable));
      return afterClose(remaining, currentPath, path);
    },
    closeRight(path, currentPath) {
      const { tabs } = get();
      const index = tabs.findIndex((t) => t.path === path);
      const remaining = commit(tabs.filter((t, i) => i <= index || !t.meta.closable));
      return afterClose(remaining, currentPath, path);
    },
    closeOther(path, currentPath) {
      const remaining = commit(get().tabs.filter((t) => t.path === path || !t.meta.closable));
      return afterClose(remaining, currentPath, path);
    },
    closeAll() {
      commit(get().tabs.filter((t) => !t.meta.closable));
      // spec §4: closing all goes to the dashboard.
      return HOME_TAB.fullPath;
    },
    move(fromPath, toPath) {
      const tabs = [...get().tabs];
      const from = tabs.findIndex((t) => t.path === fromPath);
      const to = tabs.findIndex((t) => t.path === toPath);
      // The first tab stays first.
      if (from <= 0 || to <= 0 || from === to) return;
      const [moved] = tabs.splice(from, 1);
      tabs.splice(to, 0, moved!);
      commit(tabs);
    },
  };
});

/** Forgets the in-memory tabs at sign-out (the stored ones stay for the user's next sign-in). */
export const resetTabsInMemory = () => useTabs.setState({ userId: null, tabs: [HOME_TAB] });
