import { CloseOutlined, DownOutlined } from '@ant-design/icons';
import { closestCenter, DndContext, PointerSensor, useSensor, useSensors, type DragEndEvent, type UniqueIdentifier } from '@dnd-kit/core';
import { horizontalListSortingStrategy, SortableContext, useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Button, Dropdown, theme } from 'antd';
import type { MenuProps } from 'antd';
import { useCallback, useEffect, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { useDndAccessibility } from '../../shared/ui/dnd-accessibility.ts';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { localized } from '../../shared/i18n/i18n.ts';
import { storedMenuTitle } from '../menus/menu-model.ts';
import { useLayout } from '../layout/layout-store.ts';
import { MenuIcon } from '../../shared/components/MenuIcon.tsx';
import { useSettings } from '../settings/settings-store.ts';
import { useTabs, type OpenTab } from './tabs-store.ts';

export function useTabTitle() {
  const { t, i18n } = useTranslation();
  return (tab: OpenTab) => {
    if (tab.meta.menuId) {
      const title = storedMenuTitle(tab.meta.menuId);
      if (title) return localized(title, i18n.language);
    }
    return t(tab.meta.title, { defaultValue: tab.meta.title });
  };
}

/** The tab operations (spec §2): reload, close left, right, other, all. */
function useTabOperations() {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const store = useTabs();
  const reloadPage = useLayout((s) => s.reloadPage);
  const go = (target: string | null) => {
    if (target) navigate(target);
  };
  return (tab: OpenTab): MenuProps => {
    const index = store.tabs.findIndex((x) => x.path === tab.path);
    const closableLeft = store.tabs.slice(0, index).some((x) => x.meta.closable);
    const closableRight = store.tabs.slice(index + 1).some((x) => x.meta.closable);
    const closableOther = store.tabs.some((x) => x.path !== tab.path && x.meta.closable);
    return {
      items: [
        { key: 'reload', label: t('tabs.reload'), disabled: tab.path !== pathname },
        { type: 'divider' },
        { key: 'closeLeft', label: t('tabs.closeLeft'), disabled: !closableLeft },
        { key: 'closeRight', label: t('tabs.closeRight'), disabled: !closableRight },
        { key: 'closeOther', label: t('tabs.closeOther'), disabled: !closableOther },
        { key: 'closeAll', label: t('tabs.closeAll') },
      ],
      onClick: ({ key, domEvent }) => {
        domEvent.stopPropagation();
        if (key === 'reload') reloadPage();
        if (key === 'closeLeft') go(store.closeLeft(tab.path, pathname));
        if (key === 'closeRight') go(store.closeRight(tab.path, pathname));
        if (key === 'closeOther') go(store.closeOther(tab.path, pathname));
        if (key === 'closeAll') navigate(store.closeAll());
      },
    };
  };
}

function TabItem({ tab, active, sortable }: { tab: OpenTab; active: boolean; sortable: boolean }) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const title = useTabTitle()(tab);
  const showIcon = useSettings((s) => s.settings.showTabsIcon);
  const tabsReload = useSettings((s) => s.settings.tabsReload);
  const reloadPage = useLayout((s) => s.reloadPage);
  const close = useTabs((s) => s.close);
  const operations = useTabOperations();
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: tab.path, disabled: !sortable });
  const { token } = theme.useToken();

  const open = (event: MouseEvent) => {
    event.preventDefault();
    // spec §2: clicking the current tab reloads it when tabsReload is on.
    if (active) {
      if (tabsReload) reloadPage();
      return;
    }
    navigate(tab.fullPath);
  };
  const closeTab = (event: MouseEvent | KeyboardEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const target = close(tab.path, pathname);
    if (target) navigate(target);
  };

  return (
    <Dropdown menu={operations(tab)} trigger={['contextMenu']}>
      <a
        ref={setNodeRef}
        href={`#${tab.fullPath}`}
        className={`shell-tab${active ? ' shell-tab-active' : ''}`}
        data-testid="page-tab"
        data-path={tab.path}
        aria-current={active ? 'page' : undefined}
        onClick={open}
        onAuxClick={(e) => e.button === 1 && tab.meta.closable && closeTab(e)}
        onKeyDown={(e) => {
          if ((e.key === 'Delete' || e.key === 'Backspace') && tab.meta.closable) closeTab(e);
        }}
        style={{
          transform: CSS.Translate.toString(transform),
          transition,
          opacity: isDragging ? 0.6 : 1,
          color: active ? token.colorPrimary : undefined,
          borderColor: active ? token.colorPrimary : token.colorBorderSecondary,
          background: active ? token.colorPrimaryBg : token.colorBgContainer,
        }}
        {...attributes}
        {...listeners}
        role="link"
        tabIndex={0}
      >
        {showIcon && tab.meta.icon ? <MenuIcon name={tab.meta.icon} business={Boolean(tab.meta.menuId)} /> : null}
        <span className="shell-tab-title">{title}</span>
        {tab.meta.closable ? (
          <span className="shell-tab-close" aria-hidden="true" title={t('tabs.close')} onClick={closeTab} data-testid="page-tab-close">
            <CloseOutlined />
          </span>
        ) : null}
      </a>
    </Dropdown>
  );
}

/** spec §2 tab bar: open pages, reload on click, close button and menu, drag to reorder. */
export function TabsBar() {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const tabs = useTabs((s) => s.tabs);
  const move = useTabs((s) => s.move);
  const tabsOrder = useSettings((s) => s.settings.tabsOrder);
  const operations = useTabOperations();
  const list = useRef<HTMLDivElement>(null);
  const { token } = theme.useToken();
  // A small distance keeps clicks working while dragging is on.
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }));
  const current = tabs.find((x) => x.path === pathname) ?? tabs[0]!;

  useEffect(() => {
    list.current?.querySelector('.shell-tab-active')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [pathname, tabs.length]);

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) move(String(active.id), String(over.id));
  };
  // Screen readers hear the tabs' titles while they are moved.
  const titleOf = useTabTitle();
  const accessibility = useDndAccessibility(useCallback((id: UniqueIdentifier) => {
    const tab = tabs.find((x) => x.path === id);
    return tab ? titleOf(tab) : null;
  }, [tabs, titleOf]));

  return (
    <nav className="shell-tabs" aria-label={t('tabs.label')} style={{ background: token.colorBgLayout, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={accessibility}>
        <SortableContext items={tabs.map((x) => x.path)} strategy={horizontalListSortingStrategy}>
          <div className="shell-tabs-list" ref={list}>
            {tabs.map((tab, i) => (
              <TabItem key={tab.path} tab={tab} active={tab.path === pathname} sortable={tabsOrder && i > 0} />
            ))}
          </div>
        </SortableContext>
      </DndContext>
      <Dropdown menu={operations(current)} trigger={['click']} placement="bottomRight">
        <Button size="small" type="text" icon={<DownOutlined />} aria-label={t('tabs.actions')} data-testid="tab-actions" />
      </Dropdown>
    </nav>
  );
}
