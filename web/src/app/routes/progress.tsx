import NProgress from 'nprogress';
import { useEffect } from 'react';
import { useLocation } from 'react-router';

NProgress.configure({ showSpinner: false, trickleSpeed: 150, minimum: 0.15 });

let pending = 0;
const finishIfIdle = () => {
  if (pending === 0) NProgress.done();
};

/** Suspense fallback: the progress bar runs while a lazy page chunk loads. */
export function LoadingFallback({ block = false }: { block?: boolean }) {
  useEffect(() => {
    pending++;
    NProgress.start();
    return () => {
      pending--;
      finishIfIdle();
    };
  }, []);
  return block ? <div className="app-loading" role="status" aria-busy="true" /> : null;
}

/** spec §2: every route change shows the progress bar and scrolls to the top. */
export function useRouteProgress() {
  const { pathname } = useLocation();
  useEffect(() => {
    NProgress.start();
    window.scrollTo(0, 0);
    // Two frames: the new page has rendered, or its chunk's fallback has taken over the bar.
    let second = 0;
    const first = requestAnimationFrame(() => {
      second = requestAnimationFrame(finishIfIdle);
    });
    return () => {
      cancelAnimationFrame(first);
      cancelAnimationFrame(second);
    };
  }, [pathname]);
}
