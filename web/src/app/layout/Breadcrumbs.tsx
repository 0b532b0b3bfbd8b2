import { Breadcrumb } from 'antd';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { menuTitle, menuTrail, type MenuNode } from '../menus/menu-model.ts';
import { usePageTitle } from '../routes/title.ts';
import { MenuIcon } from '../../shared/components/MenuIcon.tsx';

/**
 * spec §5: the breadcrumb hides when it is wider than the header width minus 560px; it hides too
 * when the space left of the header's buttons is narrower (the top-menu entries take part of it), so
 * it never shows as a clipped fragment (issue 28, defect 4).
 */
export const BREADCRUMB_RESERVE_PX = 560;

export function Breadcrumbs({ nodes, showIcon, headerWidth }: { nodes: MenuNode[]; showIcon: boolean; headerWidth: number }) {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const pageTitle = usePageTitle(pathname);
  const measure = useRef<HTMLDivElement>(null);
  const anchor = useRef<HTMLSpanElement>(null);
  const [width, setWidth] = useState(0);
  const [room, setRoom] = useState(Number.POSITIVE_INFINITY);
  const trail = menuTrail(nodes, pathname);
  const items = (trail.length ? trail : [{ path: pathname, titleKey: undefined, titleText: undefined } as MenuNode]).map((node) => ({
    key: node.path,
    title: (
      <span className="shell-breadcrumb-item">
        {showIcon && node.icon ? <MenuIcon name={node.icon} business={node.businessIcon} /> : null}
        <span>{node.titleKey || node.titleText ? menuTitle(node, t, i18n.language) : pageTitle}</span>
      </span>
    ),
  }));
  // Measured off-screen at its natural width, so hiding it does not change what is measured.
  // The room it has: from where it starts to the end of its container (the header's left part).
  useLayoutEffect(() => {
    setWidth(measure.current?.scrollWidth ?? 0);
    const at = anchor.current;
    const box = at?.parentElement?.getBoundingClientRect();
    if (at && box) setRoom(Math.floor(box.right - at.getBoundingClientRect().left));
  });
  // It starts after the flex gap (4px) and its own margin (8px) beyond the anchor.
  const fits = width <= headerWidth - BREADCRUMB_RESERVE_PX && width + 12 <= room;
  return (
    <>
      <div ref={measure} className="shell-breadcrumb-measure" aria-hidden="true">
        <Breadcrumb items={items} />
      </div>
      <span ref={anchor} className="shell-breadcrumb-anchor" aria-hidden="true" />
      {fits ? <Breadcrumb className="shell-breadcrumb" items={items} data-testid="breadcrumb" /> : null}
    </>
  );
}
