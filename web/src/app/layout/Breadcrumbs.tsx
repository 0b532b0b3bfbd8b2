import { Breadcrumb } from 'antd';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { menuTitle, menuTrail, type MenuNode } from '../menus/menu-model.ts';
import { usePageTitle } from '../routes/title.ts';
import { MenuIcon } from '../../shared/components/MenuIcon.tsx';

/** spec §5: the breadcrumb hides when it is wider than the header width minus 560px. */
export const BREADCRUMB_RESERVE_PX = 560;

export function Breadcrumbs({ nodes, showIcon, headerWidth }: { nodes: MenuNode[]; showIcon: boolean; headerWidth: number }) {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const pageTitle = usePageTitle(pathname);
  const measure = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
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
  useLayoutEffect(() => {
    setWidth(measure.current?.scrollWidth ?? 0);
  });
  const fits = width <= headerWidth - BREADCRUMB_RESERVE_PX;
  return (
    <>
      <div ref={measure} className="shell-breadcrumb-measure" aria-hidden="true">
        <Breadcrumb items={items} />
      </div>
      {fits ? <Breadcrumb className="shell-breadcrumb" items={items} data-testid="breadcrumb" /> : null}
    </>
  );
}
