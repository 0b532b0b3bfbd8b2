import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { hasAccess, useSession } from '../../shared/auth/session.ts';
import { ModuleEmptyState } from '../pages/ModuleEmptyState.tsx';
import { OWN_PAGES } from './own-pages.ts';
import { PageErrorBoundary } from './PageErrorBoundary.tsx';
import { LoadingFallback } from './progress.tsx';
import { resolveRoute } from './resolve.ts';
import type { RouteDef } from './route-table.ts';
import { usePageTitle } from './title.ts';

/**
 * One route's page: the access check (spec §6: a page the user may not open goes to /403), then the
 * contributed module page, the shell's own page, or the empty state of a module not installed yet.
 */
export default function RoutePage({ def }: { def: RouteDef }) {
  const { pathname } = useLocation();
  const user = useSession((s) => s.user);
  const title = usePageTitle(pathname);
  const { t } = useTranslation();
  const resolved = resolveRoute(pathname);
  const auth = resolved?.auth ?? [];
  // Signed out (RequireAuth sends the visitor to login): nothing to check access against.
  if (def.layout !== 'public' && !user) return null;
  if (def.layout !== 'public' && !hasAccess(user, auth)) return <Navigate to="/403" replace />;
  const Page = resolved?.page?.component ?? (def.own ? OWN_PAGES[def.own] : null);
  return (
    <PageErrorBoundary resetKey={pathname}>
      <Suspense fallback={<LoadingFallback block />}>
        {Page ? <Page /> : <ModuleEmptyState title={title || t(def.title)} module={def.module ?? def.name} />}
      </Suspense>
    </PageErrorBoundary>
  );
}
