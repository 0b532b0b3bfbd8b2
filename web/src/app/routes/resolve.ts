import { matchPath } from 'react-router';
import { modulePages, type ModulePage } from '../module-pages.tsx';
import { ROUTES, type RouteDef } from './route-table.ts';

/** The route table plus pages modules contribute at paths the table does not list (shell layout). */
export const ALL_ROUTES: RouteDef[] = [
  ...ROUTES,
  ...Object.entries(modulePages)
    .filter(([path]) => !ROUTES.some((r) => r.path === path))
    .map(([path, page]): RouteDef => ({
      path,
      name: page.name ?? path.replace(/^\//, '').replace(/\//g, '-'),
      title: page.title ?? path,
      layout: 'shell',
    })),
];

export interface ResolvedRoute {
  def: RouteDef;
  params: Record<string, string | undefined>;
  page: ModulePage | undefined;
  /** Codes the user must hold (from the contributed page). */
  auth: string[];
}

/** The route definition for a pathname (most specific first: static paths before params). */
export function resolveRoute(pathname: string): ResolvedRoute | null {
  for (const def of ALL_ROUTES) {
    const match = matchPath({ path: def.path, end: true }, pathname);
    if (match) {
      const page = modulePages[def.path];
      return { def: { ...def, name: page?.name ?? def.name }, params: match.params, page, auth: page?.auth ?? [] };
    }
  }
  return null;
}
