import { Suspense, type ReactNode } from 'react';
import { createHashRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { RequireAuth } from './RequireAuth.tsx';
import { lazyWithTimeout } from './routes/lazy-page.ts';
import { LoadingFallback, useRouteProgress } from './routes/progress.tsx';
import { ALL_ROUTES } from './routes/resolve.ts';
import { REDIRECTS, type RouteDef } from './routes/route-table.ts';
import { useDocumentTitle } from './routes/title.ts';

// Everything but the login page is a lazy chunk: the login route stays light (bench/web).
const LoginPage = lazyWithTimeout(() => import('../modules/auth/pages/LoginPage.tsx'));
const AppLayout = lazyWithTimeout(() => import('./layout/AppLayout.tsx'));
const ViewLayout = lazyWithTimeout(() => import('./layout/ViewLayout.tsx'));
const StandaloneLayout = lazyWithTimeout(() => import('./layout/StandaloneLayout.tsx'));
const RoutePage = lazyWithTimeout(() => import('./routes/RoutePage.tsx'));
const ErrorPage = lazyWithTimeout(() => import('./pages/ErrorPage.tsx'));
// The antd App (modal, notification and their bridge) — not needed by the login page.
const FeedbackApp = lazyWithTimeout(() => import('../shared/ui/FeedbackApp.tsx'));

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
      { path: '/login', element: plainBlock(<LoginPage />) },
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
