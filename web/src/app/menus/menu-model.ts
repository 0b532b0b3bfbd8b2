import type { TBusinessMenu } from '@tessera/core/contracts/business-menus';
import type { TMenuItem } from '@tessera/core/contracts/menus';
import type { TFunction } from 'i18next';
import { localized } from '../../shared/i18n/i18n.ts';
import { appStorage } from '../../shared/storage.ts';

/** One menu entry as the shell draws it: system items (i18n keys) and business menus (multilingual titles). */
export interface MenuNode {
  path: string;
  /** An i18n key (`menu:user`) for system items. */
  titleKey?: string;
  /** Multilingual title for business menus. */
  titleText?: Record<string, string>;
  icon?: string;
  /** Business-menu icons come from the whole icon set (loaded lazily). */
  businessIcon?: boolean;
  children?: MenuNode[];
  auth?: string[];
  /** spec §2: a jump-enabled group goes to its first /params/ path. */
  jumpTo?: string;
  /** spec §2: the system entry hides the sider. */
  hideSider?: boolean;
  menuId?: string;
  /** A business menu that opens a page (its page is set): console shortcuts offer only these. */
  opensPage?: boolean;
}

export const menuTitle = (node: Pick<MenuNode, 'titleKey' | 'titleText'>, t: TFunction, locale?: string): string =>
  node.titleText ? localized(node.titleText, locale) : t(node.titleKey ?? '', { defaultValue: node.titleKey ?? '' });

export function fromSystemMenu(item: TMenuItem): MenuNode {
  return {
    path: item.path,
    titleKey: item.title,
    icon: item.icon,
    auth: item.auth,
    hideSider: item.mainShow === false,
    children: item.children?.map(fromSystemMenu),
  };
}

export const paramsPath = (menuId: string, childId: string) => `/menu/${menuId}/params/${childId}`;

/**
 * spec §2: business menus become /menu/{id}; a leaf opens /menu/{top}/params/{leaf}; a menu with an
 * associateKey is a jump item at /menu/{id}/params/{id}; a jump-enabled group goes to its first
 * /params/ path.
 */
export function fromBusinessMenus(menus: TBusinessMenu[]): MenuNode[] {
  const convert = (menu: TBusinessMenu, topId: string): MenuNode => {
    const children = menu.subBusinessMenus.map((m) => convert(m, topId));
    const base = { titleText: menu.title, icon: menu.url ?? undefined, businessIcon: true, menuId: menu.id, ...(menu.pageDefinitionId ? { opensPage: true } : {}) };
    if (children.length === 0) {
      return { ...base, path: menu.associateKey ? paramsPath(menu.id, menu.id) : paramsPath(topId, menu.id) };
    }
    const node: MenuNode = { ...base, path: `/menu/${menu.id}`, children };
    if (menu.isJump) node.jumpTo = firstParamsPath(node) ?? undefined;
    return node;
  };
  return menus.map((m) => convert(m, m.id));
}

export function firstParamsPath(node: MenuNode): string | null {
  if (!node.children?.length) return node.path.includes('/params/') ? node.path : null;
  for (const child of node.children) {
    const found = firstParamsPath(child);
    if (found) return found;
  }
  return null;
}

export function findByMenuId(nodes: MenuNode[], menuId: string): MenuNode | null {
  for (const node of nodes) {
    if (node.menuId === menuId) return node;
    const found = findByMenuId(node.children ?? [], menuId);
    if (found) return found;
  }
  return null;
}

/** The chain of menu nodes from the top to the item at `path` (for breadcrumbs and open groups). */
export function menuTrail(nodes: MenuNode[], path: string): MenuNode[] {
  for (const node of nodes) {
    if (node.path === path) return [node];
    const below = menuTrail(node.children ?? [], path);
    if (below.length) return [node, ...below];
  }
  return [];
}

/** Every leaf (what a search can open), with the titles of its ancestors. */
/** The business menus a shortcut may offer: leaves that open a page (a menu without one only says so). */
export const pageShortcuts = (nodes: MenuNode[]) => menuLeaves(nodes).filter(({ node }) => node.opensPage);

export function menuLeaves(nodes: MenuNode[], trail: MenuNode[] = []): { node: MenuNode; trail: MenuNode[] }[] {
  return nodes.flatMap((node) =>
    node.children?.length ? menuLeaves(node.children, [...trail, node]) : [{ node, trail }],
  );
}

/** spec §3 stored `menuTitleOrId`: business menu ids with their titles, for tab titles after a reload. */
export const MENU_TITLES_KEY = 'menuTitleOrId';

export function storeMenuTitles(menus: TBusinessMenu[]) {
  const list: { id: string; title: Record<string, string> }[] = [];
  const walk = (items: TBusinessMenu[]) => {
    for (const m of items) {
      list.push({ id: m.id, title: m.title });
      walk(m.subBusinessMenus);
    }
  };
  walk(menus);
  appStorage.setItem(MENU_TITLES_KEY, JSON.stringify(list));
}

export function storedMenuTitle(menuId: string): Record<string, string> | null {
  try {
    const list = JSON.parse(appStorage.getItem(MENU_TITLES_KEY) ?? '[]') as { id: string; title: Record<string, string> }[];
    return list.find((m) => m.id === menuId)?.title ?? null;
  } catch {
    return null;
  }
}
