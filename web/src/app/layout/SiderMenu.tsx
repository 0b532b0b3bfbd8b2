import { Badge, Menu, Skeleton } from 'antd';
import type { ItemType } from 'antd/es/menu/interface';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { menuTitle, menuTrail, type MenuNode } from '../menus/menu-model.ts';
import { MenuIcon, MenuInitial } from '../../shared/components/MenuIcon.tsx';
import { useTodoCount } from '../live-counts.ts';

/** The sider item whose label carries the open to-do count. */
const TODO_PATH = '/flows/assignTask';

/** spec §9: the sider menu shows after 500 ms; the active item scrolls into view after 300 ms. */
const MENU_SHOW_DELAY_MS = 500;
const SCROLL_DELAY_MS = 300;

interface Props {
  nodes: MenuNode[];
  collapsed: boolean;
  theme: 'dark' | 'light';
  accordion: boolean;
  showCollapseMenuTitle: boolean;
  /** Mobile drawer: no delay (the drawer opens on demand). */
  immediate?: boolean;
  onNavigate?: () => void;
}

export function SiderMenu({ nodes, collapsed, theme, accordion, showCollapseMenuTitle, immediate = false, onNavigate }: Props) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [visible, setVisible] = useState(immediate);
  const wrapper = useRef<HTMLDivElement>(null);
  const trail = useMemo(() => menuTrail(nodes, pathname), [nodes, pathname]);
  const trailKeys = useMemo(() => trail.slice(0, -1).map((n) => n.path), [trail]);
  const [openKeys, setOpenKeys] = useState<string[]>(trailKeys);
  const todoCount = useTodoCount().data ?? 0;

  useEffect(() => {
    if (immediate) return;
    const timer = setTimeout(() => setVisible(true), MENU_SHOW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [immediate]);

  // The groups of the current page open when the route changes (accordion: only those).
  useEffect(() => {
    setOpenKeys((keys) => (accordion ? trailKeys : [...new Set([...keys, ...trailKeys])]));
  }, [trailKeys, accordion]);

  useEffect(() => {
    const timer = setTimeout(() => {
      wrapper.current?.querySelector('.ant-menu-item-selected')?.scrollIntoView({ block: 'nearest' });
    }, SCROLL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [pathname, visible]);

  const items = useMemo(() => {
    const toItem = (node: MenuNode, depth: number): ItemType => {
      const label = menuTitle(node, t, i18n.language);
      // A top-level business menu without a (known) icon shows its first character, so a collapsed
      // sider never has a blank row; the item's title is its tooltip there.
      const fallback = depth === 0 && node.businessIcon ? <MenuInitial title={label} /> : null;
      const icon = depth === 0 || node.icon ? <MenuIcon name={node.icon} business={node.businessIcon} fallback={fallback} /> : undefined;
      if (!node.children?.length) {
        if (node.path === TODO_PATH && todoCount > 0) {
          const badged = (
            <span className="menu-label-badged">
              <span>{label}</span>
              <Badge count={todoCount} overflowCount={99} size="small" data-testid="sider-todo-count" />
            </span>
          );
          return { key: node.path, icon, label: badged, title: label };
        }
        return { key: node.path, icon, label, title: label };
      }
      const children = node.children.map((c) => toItem(c, depth + 1));
      return {
        key: node.path,
        icon,
        label,
        // spec: when collapsed, the popup starts with the parent's name (showCollapseMenuTitle).
        children: collapsed && depth === 0 && showCollapseMenuTitle ? [{ type: 'group', key: `${node.path}#title`, label, children }] : children,
        onTitleClick: node.jumpTo ? () => go(node.jumpTo!) : undefined,
      };
    };
    const go = (path: string) => {
      navigate(path);
      onNavigate?.();
    };
    return nodes.map((n) => toItem(n, 0));
  }, [nodes, collapsed, showCollapseMenuTitle, t, i18n.language, navigate, onNavigate, todoCount]);

  const onOpenChange = (keys: string[]) => {
    if (!accordion) return setOpenKeys(keys);
    const opened = keys.find((k) => !openKeys.includes(k));
    if (!opened) return setOpenKeys(keys);
    // Accordion: the newly opened group with its ancestors only.
    setOpenKeys(menuTrail(nodes, opened).map((n) => n.path));
  };

  if (!visible) return <Skeleton active title={false} paragraph={{ rows: 6 }} style={{ padding: '16px 20px' }} />;
  return (
    <div ref={wrapper} data-testid="sider-menu">
      <Menu
        mode="inline"
        theme={theme}
        items={items}
        selectedKeys={[pathname]}
        {...(collapsed ? {} : { openKeys })}
        onOpenChange={onOpenChange}
        onClick={({ key }) => {
          if (key.includes('#')) return;
          navigate(key);
          onNavigate?.();
        }}
        style={{ borderInlineEnd: 'none' }}
      />
    </div>
  );
}
