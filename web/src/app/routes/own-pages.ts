import type { ComponentType } from 'react';
import { lazyWithTimeout, type PreloadableLazy } from './lazy-page.ts';
import type { OwnPage } from './route-table.ts';

/** The shell's own pages, each its own chunk (the route table names them by `own`). */
export const OWN_PAGES: Record<OwnPage, PreloadableLazy<ComponentType>> = {
  console: lazyWithTimeout(() => import('../pages/ConsolePage.tsx')),
  log: lazyWithTimeout(() => import('../pages/LogPage.tsx')),
  icons: lazyWithTimeout(() => import('../pages/IconsPage.tsx')),
  diagnostics: lazyWithTimeout(() => import('../pages/DiagnosticsPage.tsx')),
  menuRedirect: lazyWithTimeout(() => import('../pages/MenuRedirectPage.tsx')),
  redirectHelper: lazyWithTimeout(() => import('../pages/RedirectPage.tsx')),
  refreshHelper: lazyWithTimeout(() => import('../pages/RefreshPage.tsx')),
};
