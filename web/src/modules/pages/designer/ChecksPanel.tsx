import { CheckCircleTwoTone, ReloadOutlined, WarningOutlined } from '@ant-design/icons';
import { Alert, Button, List, Space, Tag, Typography } from 'antd';
import type { TDesignCheckResult, TDesignProblem } from '@tessera/core/contracts/pages';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkPageDefinition } from '../api/page-definitions.ts';
import { flushDraft } from './autosave.ts';
import { useDesigner } from './designer-store.ts';

export interface DesignChecks {
  result: TDesignCheckResult | null;
  running: boolean;
  error: string | null;
  run(): Promise<TDesignCheckResult | null>;
  set(result: TDesignCheckResult): void;
}

/** The server's design-time checks (`POST /{id}/check`) of the draft, saved first so they see the canvas. */
export function useDesignChecks(pageId: string): DesignChecks {
  const { t } = useTranslation('pageDesigner');
  const [result, setResult] = useState<TDesignCheckResult | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async () => {
    setRunning(true);
    setError(null);
    try {
      if (!(await flushDraft())) {
        setError(t('checks.notSaved'));
        return null;
      }
      const r = await checkPageDefinition(pageId);
      setResult(r);
      return r;
    } catch (e) {
      setError((e as Error).message);
      return null;
    } finally {
      setRunning(false);
    }
  }, [pageId, t]);
  return { result, running, error, run, set: setResult };
}

/** Selects what a problem is about: its control or view on the canvas, or its linkage. */
export function selectProblem(p: TDesignProblem) {
  const s = useDesigner.getState();
  if (p.linkageId) return s.openLinkage(p.linkageId);
  const id = p.controlId ?? p.viewId;
  if (!id) return;
  s.setSelection([id]);
  s.setPanel('properties');
  requestAnimationFrame(() => document.querySelector(`[data-element-id="${CSS.escape(id)}"]`)?.scrollIntoView({ block: 'center', behavior: 'smooth' }));
}

const KIND_COLOR: Partial<Record<TDesignProblem['kind'], string>> = { formula: 'orange', linkageCycle: 'red', lookupMapping: 'purple', childForeignKey: 'blue', duplicateCode: 'magenta' };

export function ProblemList({ problems, onPick }: { problems: TDesignProblem[]; onPick?(p: TDesignProblem): void }) {
  const { t } = useTranslation('pageDesigner');
  return (
    <List
      size="small"
      dataSource={problems}
      renderItem={(p, i) => (
        <List.Item
          key={i}
          className="dz-problem-item"
          data-testid="design-problem"
          onClick={() => (selectProblem(p), onPick?.(p))}
          style={{ cursor: 'pointer' }}
        >
          <Space align="start">
            <WarningOutlined style={{ color: '#fa8c16', marginTop: 4 }} />
            <div>
              <Tag color={KIND_COLOR[p.kind] ?? 'default'}>{t(`checks.kind.${p.kind}`)}</Tag>
              <Typography.Text>{p.message}</Typography.Text>
            </div>
          </Space>
        </List.Item>
      )}
    />
  );
}

export function ChecksPanel({ checks }: { checks: DesignChecks }) {
  const { t } = useTranslation('pageDesigner');
  const { result, running, error } = checks;
  return (
    <div className="dz-props-body" data-testid="checks-panel">
      <Space style={{ marginBottom: 8 }}>
        <Button size="small" icon={<ReloadOutlined />} loading={running} onClick={() => void checks.run()}>
          {t('checks.run')}
        </Button>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('checks.hint')}
        </Typography.Text>
      </Space>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 8 }} />}
      {result && result.problems.length === 0 && (
        <Space>
          <CheckCircleTwoTone twoToneColor="#52c41a" />
          <Typography.Text data-testid="checks-ok">{t('checks.ok')}</Typography.Text>
        </Space>
      )}
      {result && result.problems.length > 0 && (
        <>
          <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 4 }}>
            {t('checks.count', { count: result.problems.length })}
          </Typography.Paragraph>
          <ProblemList problems={result.problems} />
        </>
      )}
    </div>
  );
}
