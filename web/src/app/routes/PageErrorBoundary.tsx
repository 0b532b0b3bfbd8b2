import { Button, Result } from 'antd';
import { Component, type ReactNode } from 'react';
import i18n from '../../shared/i18n/i18n.ts';
import { addLog } from '../../shared/logs/log-store.ts';
import { ChunkTimeoutError } from './lazy-page.ts';

interface State {
  error: Error | null;
}

const isChunkFailure = (error: Error) =>
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(error.message);

/**
 * Catches what a page throws while loading or rendering: a chunk that timed out (spec §8: 120 s)
 * or failed to download, or a crash. Logs an error entry and offers to try again.
 */
export class PageErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error) {
    addLog({ type: 'error', message: error.message, meta: { stack: error.stack, page: window.location.hash } });
  }

  override componentDidUpdate(prev: { resetKey: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const t = i18n.getFixedT(null, 'shell');
    const timedOut = error instanceof ChunkTimeoutError;
    const chunk = timedOut || isChunkFailure(error);
    return (
      <Result
        status={chunk ? 'warning' : 'error'}
        title={timedOut ? t('error.chunkTimeout') : chunk ? t('error.chunkFailed') : t('error.pageCrashed')}
        subTitle={chunk ? undefined : error.message}
        extra={
          <Button type="primary" onClick={() => (chunk ? window.location.reload() : this.setState({ error: null }))}>
            {t('error.retry')}
          </Button>
        }
      />
    );
  }
}
