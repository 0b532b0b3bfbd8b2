import type { TBusinessMenu } from '@tessera/core/contracts/business-menus';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// menu-model's real dependencies read the browser (window, document, localStorage) when they load:
// the language is not under test here, and storage is an in-memory stand-in.
const stored = vi.hoisted(() => new Map<string, string>());
vi.mock('../../shared/i18n/i18n.ts', () => ({ localized: (text: Record<string, string>) => Object.values(text)[0] ?? '' }));
vi.mock('../../shared/storage.ts', () => ({
  appStorage: {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => void stored.set(key, value),
    removeItem: (key: string) => void stored.delete(key),
  },
}));

const { findByMenuId, firstParamsPath, fromBusinessMenus, fromSystemMenu, menuLeaves, menuTrail, MENU_TITLES_KEY, pageShortcuts, storedMenuTitle, storeMenuTitles } = await import('./menu-model.ts');

let order = 0;
const menu = (id: string, sub: TBusinessMenu[] = [], extra: Partial<TBusinessMenu> = {}): TBusinessMenu => ({
  id,
  title: { 'en-US': id },
  url: 'AppstoreOutlined',
  associateKey: null,
  parentId: null,
  order: order++,
  pageDefinitionId: null,
  isJump: false,
  permissionCode: `Biz.Menu.${id}`,
  concurrencyStamp: 's',
  subBusinessMenus: sub,
  ...extra,
});

// Sales ─┬─ Orders ─┬─ Open
//        │          └─ Closed
//        └─ Report (a jump item, associateKey)
// Stock (a leaf at the top)
// Purchasing (jump-enabled group) ── Requests ── Pending
const menus = () => [
  menu('sales', [menu('orders', [menu('open'), menu('closed')]), menu('report', [], { associateKey: 'daily' })]),
  menu('stock'),
  menu('purchasing', [menu('requests', [menu('pending')])], { isJump: true }),
];

describe('fromBusinessMenus', () => {
  it('keeps the menus in their order, at every level', () => {
    const nodes = fromBusinessMenus(menus());
    expect(nodes.map((n) => n.menuId)).toEqual(['sales', 'stock', 'purchasing']);
    expect(nodes[0]!.children!.map((n) => n.menuId)).toEqual(['orders', 'report']);
    expect(nodes[0]!.children![0]!.children!.map((n) => n.menuId)).toEqual(['open', 'closed']);
  });

  it('opens a leaf under its top menu, a jump item under itself, and a group at its own path', () => {
    const [sales, stock] = fromBusinessMenus(menus());
    expect(sales!.path).toBe('/menu/sales');
    expect(findByMenuId([sales!], 'open')!.path).toBe('/menu/sales/params/open');
    expect(findByMenuId([sales!], 'report')!.path).toBe('/menu/report/params/report');
    expect(stock!.path).toBe('/menu/stock/params/stock');
  });

  it('a jump-enabled group goes to its first page; other groups go nowhere', () => {
    const [sales, , purchasing] = fromBusinessMenus(menus());
    expect(purchasing!.jumpTo).toBe('/menu/purchasing/params/pending');
    expect(sales!.jumpTo).toBeUndefined();
  });

  it('business menus draw their icons from the whole icon set', () => {
    expect(fromBusinessMenus(menus()).every((n) => n.businessIcon && n.icon === 'AppstoreOutlined')).toBe(true);
  });
});

describe('finding in the menu tree', () => {
  it('firstParamsPath finds the first page depth first, and nothing under a group without pages', () => {
    const [sales] = fromBusinessMenus(menus());
    expect(firstParamsPath(sales!)).toBe('/menu/sales/params/open');
    expect(firstParamsPath({ path: '/menu/x', children: [{ path: '/menu/y', children: [] }] })).toBeNull();
  });

  it('menuTrail gives the chain from the top to a page, for breadcrumbs', () => {
    const nodes = fromBusinessMenus(menus());
    expect(menuTrail(nodes, '/menu/sales/params/closed').map((n) => n.menuId)).toEqual(['sales', 'orders', 'closed']);
    expect(menuTrail(nodes, '/nowhere')).toEqual([]);
  });

  it('pageShortcuts offers only the leaves that open a page', () => {
    const tree = [menu('sales', [menu('orders', [], { pageDefinitionId: 'p-orders' }), menu('report')]), menu('stock'), menu('bare', [], { pageDefinitionId: 'p-bare' })];
    expect(pageShortcuts(fromBusinessMenus(tree)).map(({ node }) => node.menuId)).toEqual(['orders', 'bare']);
    expect(menuLeaves(fromBusinessMenus(tree))).toHaveLength(4);
  });

  it('menuLeaves lists every page a search can open, with its ancestors', () => {
    const leaves = menuLeaves(fromBusinessMenus(menus()));
    expect(leaves.map(({ node, trail }) => [...trail.map((n) => n.menuId), node.menuId].join('/'))).toEqual([
      'sales/orders/open',
      'sales/orders/closed',
      'sales/report',
      'stock',
      'purchasing/requests/pending',
    ]);
  });

  it('system menus keep their paths, keys, permissions and the sider flag', () => {
    const node = fromSystemMenu({ path: '/system', title: 'menu:system', icon: 'SettingOutlined', auth: ['Settings'], mainShow: false, children: [{ path: '/system/user', title: 'menu:user' }] } as never);
    expect(node).toMatchObject({ path: '/system', titleKey: 'menu:system', icon: 'SettingOutlined', auth: ['Settings'], hideSider: true });
    expect(node.children![0]).toMatchObject({ path: '/system/user', titleKey: 'menu:user', hideSider: false });
  });
});

describe('stored menu titles (tab titles after a reload)', () => {
  beforeEach(() => stored.clear());

  it('remembers the title of every business menu, nested ones too', () => {
    storeMenuTitles(menus());
    expect(storedMenuTitle('pending')).toEqual({ 'en-US': 'pending' });
    expect(storedMenuTitle('sales')).toEqual({ 'en-US': 'sales' });
    expect(storedMenuTitle('gone')).toBeNull();
  });

  it('answers null rather than failing on a damaged entry', () => {
    stored.set(MENU_TITLES_KEY, '{not json');
    expect(storedMenuTitle('sales')).toBeNull();
  });
});
