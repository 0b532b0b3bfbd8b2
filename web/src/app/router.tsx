import { Suspense, type ReactNode } from 'react';
import { createHashRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import LoginPage from '../modules/auth/pages/LoginPage.tsx';
import { getToken, useSession } from '../shared/auth/session.ts';
import { RequireAuth } from './RequireAuth.tsx';
import { lazyWithTimeout } from './routes/lazy-page.ts';
import { OWN_PAGES } from './routes/own-pages.ts';
import { LoadingFallback, useRouteProgress } from './routes/progress.tsx';
import { ALL_ROUTES, resolveRoute } from './routes/resolve.ts';
import { LOGIN_PATH, REDIRECTS, type RouteDef } from './routes/route-table.ts';
import { useDocumentTitle } from './routes/title.ts';

// The login page comes with the entry (imported above: the first screen of most visits, so no second
// round trip for it; its Button and icons are the shell's too); everything else is a lazy chunk (bench/web).
const AppLayout = lazyWithTimeout(() => import('./layout/AppLayout.tsx'));
const ViewLayout = lazyWithTimeout(() => import('./layout/ViewLayout.tsx'));
const StandaloneLayout = lazyWithTimeout(() => import('./layout/StandaloneLayout.tsx'));
const RoutePage = lazyWithTimeout(() => import('./routes/RoutePage.tsx'));
const ErrorPage = lazyWithTimeout(() => import('./pages/ErrorPage.tsx'));
// The antd App (modal, notification and their bridge) — not needed by the login page.
const FeedbackApp = lazyWithTimeout(() => import('../shared/ui/FeedbackApp.tsx'));

const LAYOUTS = { shell: AppLayout, view: ViewLayout, standalone: StandaloneLayout, public: StandaloneLayout } as const;

/** Where a path ends up after the area redirects (`/` → the console). */
const redirected = (path: string) => REDIRECTS.find((r) => r.path === path)?.to ?? path;

/**
 * Starts loading the chunks a signed-in route renders — the antd App frame, the layout, the route
 * page and the page itself — side by side, instead of one after another as React meets each lazy
 * boundary (frame → layout → route page → page: four round trips plus the render between them).
 */
export function preloadRoute(path: string) {
  const resolved = resolveRoute(redirected(path));
  if (!resolved) return;
  void FeedbackApp.preload();
  void LAYOUTS[resolved.def.layout].preload();
  void RoutePage.preload();
  const page = resolved.page?.component ?? (resolved.def.own ? OWN_PAGES[resolved.def.own] : null);
  void page?.preload();
}

/** The shell's first API answers for a path, asked before the shell renders (shell-prefetch.ts, a chunk of its own). */
const loadPrefetch = () => import('./shell-prefetch.ts');
const prefetchData = (path: string, userIsFresh: boolean) => void loadPrefetch().then((m) => m.prefetchShellData(redirected(path), { userIsFresh }));

/** What the login page calls: on the intent to sign in (chunks) and once signed in (data). */
export const signInWarmUp = {
  intent: (target: string) => {
    preloadRoute(target);
    void loadPrefetch();
  },
  signedIn: (target: string) => {
    preloadRoute(target);
    prefetchData(target, true);
  },
};

/** At start-up (a reload, an opened link) with a session: the current route's chunks and data at once. */
export function warmUpStartRoute() {
  const path = router.state.location.pathname;
  if (path === LOGIN_PATH || !getToken() || !useSession.getState().user) return;
  const layout = resolveRoute(redirected(path))?.def.layout;
  if (!layout || layout === 'public') return;
  preloadRoute(path);
  prefetchData(path, false);
}

const lazyBlock = (node: ReactNode) => (
  <Suspense fallback={<LoadingFallback block />}>
    <FeedbackApp>{node}</FeedbackApp>
  </Suspense>
);
/** A page inside a frame that has the antd App already, or the login page (which needs none). */
const plainBlock = (node: ReactNode) => <Suspense fallback={<LoadingFallback block />}>{node}</Suspense>;

/** Route-change effects for every route: document title, progress bar, scroll to top. */
function Root() {
  useDocumentTitle();
  useRouteProgress();
  return <Outlet />;
}

const page = (def: RouteDef): RouteObject => ({ path: def.path, element: plainBlock(<RoutePage def={def} />) });
const redirect = (path: string, to: string): RouteObject => ({ path, element: <Navigate to={to} replace /> });
const guarded = (node: ReactNode) => <RequireAuth>{lazyBlock(node)}</RequireAuth>;

const byLayout = (layout: RouteDef['layout']) => ALL_ROUTES.filter((r) => r.layout === layout);

export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      { path: LOGIN_PATH, element: plainBlock(<LoginPage warmUp={signInWarmUp} />) },
      { path: '/403', element: lazyBlock(<ErrorPage code={403} />) },
      { path: '/500', element: lazyBlock(<ErrorPage code={500} />) },
      { path: '/404', element: lazyBlock(<ErrorPage code={404} />) },
      {
        element: guarded(<AppLayout />),
        children: [...REDIRECTS.map((r) => redirect(r.path, r.to)), ...byLayout('shell').map(page)],
      },
      { element: guarded(<ViewLayout />), children: byLayout('view').map(page) },
      { element: guarded(<StandaloneLayout />), children: byLayout('standalone').map(page) },
      { element: lazyBlock(<StandaloneLayout />), children: byLayout('public').map(page) },
      { path: '*', element: lazyBlock(<ErrorPage code={404} />) },
    ],
  },
];

export const router = createHashRouter(routes);
