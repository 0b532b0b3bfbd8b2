import { create } from 'zustand';

/** Transient layout state (not persisted): sider collapse, drawers, modals, page reloads. */
interface LayoutState {
  collapsed: boolean;
  mobileMenuOpen: boolean;
  settingsOpen: boolean;
  passwordOpen: boolean;
  searchOpen: boolean;
  /** Bumped to remount the current page (reload button, clicking the current tab). */
  reloadKey: number;
  headerHidden: boolean;
  setCollapsed(collapsed: boolean): void;
  setMobileMenuOpen(open: boolean): void;
  setSettingsOpen(open: boolean): void;
  setPasswordOpen(open: boolean): void;
  setSearchOpen(open: boolean): void;
  reloadPage(): void;
  setHeaderHidden(hidden: boolean): void;
}

export const useLayout = create<LayoutState>((set) => ({
  collapsed: false,
  mobileMenuOpen: false,
  settingsOpen: false,
  passwordOpen: false,
  searchOpen: false,
  reloadKey: 0,
  headerHidden: false,
  setCollapsed: (collapsed) => set({ collapsed }),
  setMobileMenuOpen: (mobileMenuOpen) => set({ mobileMenuOpen }),
  setSettingsOpen: (settingsOpen) => set({ settingsOpen }),
  setPasswordOpen: (passwordOpen) => set({ passwordOpen }),
  setSearchOpen: (searchOpen) => set({ searchOpen }),
  reloadPage: () => set((s) => ({ reloadKey: s.reloadKey + 1 })),
  setHeaderHidden: (headerHidden) => set({ headerHidden }),
}));
