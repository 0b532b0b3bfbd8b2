import { create } from 'zustand';
import { appStorage } from '../../shared/storage.ts';

/** spec §3 layout settings plus the theme, tab behaviour and watermark switches. */
export interface LayoutSettings {
  siderTheme: 'dark' | 'light';
  headerTheme: 'light' | 'dark' | 'primary';
  /** The header spans the full width above the sider (needs headerFix). */
  headerStick: boolean;
  /** Top-level menus in the header; the sider then shows the second level. */
  headerMenu: boolean;
  siderFix: boolean;
  headerFix: boolean;
  /** Hide the header when scrolling down (needs headerFix). */
  headerHide: boolean;
  menuAccordion: boolean;
  showSiderCollapse: boolean;
  showCollapseMenuTitle: boolean;
  showBreadcrumb: boolean;
  showBreadcrumbIcon: boolean;
  showReload: boolean;
  showI18n: boolean;
  tabs: boolean;
  showTabsIcon: boolean;
  tabsFix: boolean;
  /** Clicking the current tab reloads it. */
  tabsReload: boolean;
  /** Tabs can be reordered by dragging. */
  tabsOrder: boolean;
  /** Re-entering the same route with other parameters remounts the page. */
  sameRouteForceUpdate: boolean;
  watermark: boolean;
  darkTheme: boolean;
  primaryColor: string;
}

/** spec §9: primary colour #51d6a9, dark theme on, menu accordion on. */
export const DEFAULT_SETTINGS: LayoutSettings = {
  siderTheme: 'dark',
  headerTheme: 'light',
  headerStick: false,
  headerMenu: false,
  siderFix: true,
  headerFix: true,
  headerHide: false,
  menuAccordion: true,
  showSiderCollapse: true,
  showCollapseMenuTitle: true,
  showBreadcrumb: true,
  showBreadcrumbIcon: false,
  showReload: true,
  showI18n: true,
  tabs: true,
  showTabsIcon: true,
  tabsFix: true,
  tabsReload: true,
  tabsOrder: true,
  sameRouteForceUpdate: false,
  watermark: false,
  darkTheme: true,
  primaryColor: '#51d6a9',
};

/**
 * spec §5: a dependent switch is disabled (and has no effect) unless its parent is on.
 * The global breadcrumb has no effect while the head menu is on.
 */
export const SETTING_PARENTS: Partial<Record<keyof LayoutSettings, keyof LayoutSettings>> = {
  headerHide: 'headerFix',
  headerStick: 'headerFix',
  showBreadcrumbIcon: 'showBreadcrumb',
  showTabsIcon: 'tabs',
  tabsFix: 'tabs',
  tabsReload: 'tabs',
  tabsOrder: 'tabs',
};

export const SETTINGS_STORAGE_KEY = 'tessera.settings';

function stored(): LayoutSettings {
  try {
    const raw = JSON.parse(appStorage.getItem(SETTINGS_STORAGE_KEY) ?? '{}') as Partial<LayoutSettings>;
    const merged = { ...DEFAULT_SETTINGS };
    for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof LayoutSettings)[]) {
      if (typeof raw[key] === typeof DEFAULT_SETTINGS[key]) (merged as Record<string, unknown>)[key] = raw[key];
    }
    if (!/^#[0-9a-fA-F]{6}$/.test(merged.primaryColor)) merged.primaryColor = DEFAULT_SETTINGS.primaryColor;
    return merged;
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

interface SettingsState {
  settings: LayoutSettings;
  set<K extends keyof LayoutSettings>(key: K, value: LayoutSettings[K]): void;
  reset(): void;
}

const persist = (settings: LayoutSettings) => appStorage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify(settings));

/** Persisted locally and applied at once (the layout and the theme read this store). */
export const useSettings = create<SettingsState>((set, get) => ({
  settings: stored(),
  set(key, value) {
    const settings = { ...get().settings, [key]: value };
    persist(settings);
    set({ settings });
  },
  reset() {
    persist(DEFAULT_SETTINGS);
    set({ settings: { ...DEFAULT_SETTINGS } });
  },
}));

/** A setting's effective value: a dependent switch counts only when its parent is on. */
export function effective(settings: LayoutSettings, key: keyof LayoutSettings): boolean {
  const parent = SETTING_PARENTS[key];
  if (parent && !settings[parent]) return false;
  if (key === 'showBreadcrumb' && settings.headerMenu) return false;
  return Boolean(settings[key]);
}
