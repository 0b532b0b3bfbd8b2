import { RightOutlined } from '@ant-design/icons';
import { App, Button, Checkbox, Col, Descriptions, Drawer, Grid, Row, Skeleton, Tabs, Tooltip, Typography, type DescriptionsProps } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { recordView, type RecordEditsHandle } from '../../../shared/components/record-view.ts';
import { useWorkflowForRecord, useWorkflowInstance } from '../runtime/api.ts';
import { FlowTimeline } from '../runtime/FlowTimeline.tsx';
import RecordApproval from '../runtime/RecordApproval.tsx';
import { isShortcut, SHORTCUTS } from '../runtime/shortcuts.ts';
import { fetchNextTodo } from './next-task.ts';
import '../runtime/i18n.ts';
import './i18n.ts';
import './approval-page.css';

// The canvas library loads when the diagram tab opens.
const ProgressGraph = lazy(() => import('../runtime/ProgressGraph.tsx'));

export interface RecordFlowDrawerProps {
  title: string;
  /** The record the flow runs on; null: the drawer is closed. */
  record: { pageId: string; recordId: string } | null;
  /** What the list knows of the task or instance (flow, node, initiator, times). */
  items: DescriptionsProps['items'];
  onClose(): void;
  /** The approval bar changed the flow (approved, withdrew, took back…) and no next task opened. */
  onChanged(): void;
  /** The task on screen (the to-do list's): the next-task button skips it. */
  taskId?: string | null;
  /** Opens another to-do in the drawer: with it, the next-task button (Alt+N) and "open the next one after acting". */
  onOpenTask?(taskId: string): void;
  testId?: string;
}

const AUTO_NEXT_KEY = 'tessera.workflow.autoNext';
const readAutoNext = () => {
  try {
    return localStorage.getItem(AUTO_NEXT_KEY) === '1';
  } catch {
    return false;
  }
};

/**
 * The approval page (issue 14), opened from any task list, a notification's link or `?taskId=`: what
 * the list knows of the task; the record's form (business-data's record view — read-only but for
 * the fields the approver's node makes editable) with its lines; the flow's timeline beside it (one
 * column on a phone); the diagram coloured by progress in a tab; and at the bottom, fixed, the
 * approval bar with exactly the actions the node allows (Alt+A approve, Alt+R reject; approve saves
 * the approver's unsaved edits of the form with it, all or nothing), the
 * next-task button (Alt+N) and whether to open the next to-do after acting. Esc closes.
 * Without a registered record view, or when the caller cannot load the record's page, the bar alone.
 */
export function RecordFlowDrawer({ title, record, items, onClose, onChanged, taskId, onOpenTask, testId }: RecordFlowDrawerProps) {
  const { t } = useTranslation('workflowRuntime');
  const { message } = App.useApp();
  const client = useQueryClient();
  const phone = Grid.useBreakpoint().md === false;
  const RecordView = recordView();
  const [autoNext, setAutoNext] = useState(readAutoNext);
  const [tab, setTab] = useState('form');
  const [finding, setFinding] = useState(false);
  // Tasks handled or skipped in this drawer session: "next" never offers them again.
  const passed = useRef<string[]>([]);
  // The form's unsaved edits: approve sends them with the approval (one transaction on the server).
  const formHandle = useRef<RecordEditsHandle | null>(null);
  const onFormHandle = useCallback((handle: RecordEditsHandle | null) => {
    formHandle.current = handle;
  }, []);
  const key = record ? `${record.pageId}|${record.recordId}` : '';

  const openNext = useCallback(async (): Promise<boolean> => {
    if (!onOpenTask) return false;
    setFinding(true);
    try {
      if (taskId && !passed.current.includes(taskId)) passed.current.push(taskId);
      const next = await fetchNextTodo(client, passed.current);
      if (!next) {
        message.info(t('page.noNext'));
        return false;
      }
      setTab('form');
      onOpenTask(next.id);
      return true;
    } finally {
      setFinding(false);
    }
  }, [client, message, onOpenTask, t, taskId]);

  useEffect(() => {
    if (!record || !onOpenTask) return;
    const onKey = (e: KeyboardEvent) => {
      if (!isShortcut(e, 'next') || document.querySelector('.ant-modal-wrap:not([style*="display: none"]) .ant-modal')) return;
      e.preventDefault();
      void openNext();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [record, onOpenTask, openNext]);
  useEffect(() => {
    if (!record) passed.current = [];
  }, [record]);

  const acted = async () => {
    if (autoNext && onOpenTask && (await openNext())) return;
    onChanged();
  };
  const bar = record && <RecordApproval key={key} pageId={record.pageId} recordId={record.recordId} flowStatus={1} onChanged={() => void acted()} shortcuts edits={formHandle} />;
  const footer = record && (
    <div className="wf-approval-footer" data-testid="approval-action-bar">
      <div className="wf-approval-footer-actions">{bar}</div>
      {onOpenTask && (
        <div className="wf-approval-footer-next">
          <Checkbox
            checked={autoNext}
            onChange={(e) => {
              setAutoNext(e.target.checked);
              try {
                localStorage.setItem(AUTO_NEXT_KEY, e.target.checked ? '1' : '0');
              } catch {
                // Private mode: the choice lasts for the drawer.
              }
            }}
            data-testid="approval-auto-next"
          >
            {t('page.autoNext')}
          </Checkbox>
          <Tooltip title={t('page.nextHint')}>
            <Button icon={<RightOutlined />} iconPlacement="end" loading={finding} onClick={() => void openNext()} data-testid="approval-next" aria-keyshortcuts={SHORTCUTS.next.label}>
              {t('page.next')}
            </Button>
          </Tooltip>
        </div>
      )}
    </div>
  );

  return (
    <Drawer
      open={!!record}
      onClose={onClose}
      title={title}
      size={phone ? '100%' : 1120}
      destroyOnHidden
      data-testid={testId}
      footer={footer}
      closable={{ 'aria-label': t('page.closeHint') }}
      className="wf-approval-page"
      styles={{ body: { padding: phone ? 12 : 24 } }}
    >
      <Descriptions size="small" bordered column={phone ? 1 : 2} items={items} style={{ marginBottom: 16 }} />
      {record && (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={16}>
            <Tabs
              activeKey={tab}
              onChange={setTab}
              size="small"
              items={[
                {
                  key: 'form',
                  label: t('page.form'),
                  children: RecordView ? (
                    <Suspense fallback={<Skeleton active />}>
                      <RecordView key={key} pageId={record.pageId} recordId={record.recordId} fallback={null} onClose={onClose} withExtras={false} onFormHandle={onFormHandle} />
                    </Suspense>
                  ) : null,
                },
                { key: 'diagram', label: t('page.diagram'), children: tab === 'diagram' ? <FlowDiagram key={key} {...record} /> : null },
              ]}
            />
          </Col>
          <Col xs={24} lg={8}>
            <Typography.Title level={5} style={{ marginTop: 8 }}>
              {t('page.timeline')}
            </Typography.Title>
            <RecordTimeline key={key} {...record} />
          </Col>
        </Row>
      )}
    </Drawer>
  );
}

function useRecordInstance(pageId: string, recordId: string) {
  const forRecord = useWorkflowForRecord(pageId, recordId);
  return useWorkflowInstance(forRecord.data?.instance?.id ?? null);
}

function RecordTimeline({ pageId, recordId }: { pageId: string; recordId: string }) {
  const detail = useRecordInstance(pageId, recordId);
  return detail.data ? <FlowTimeline detail={detail.data} /> : <Skeleton active />;
}

function FlowDiagram({ pageId, recordId }: { pageId: string; recordId: string }) {
  const detail = useRecordInstance(pageId, recordId);
  return (
    <div className="wf-approval-diagram">
      {detail.data ? (
        <Suspense fallback={<Skeleton active />}>
          <ProgressGraph detail={detail.data} />
        </Suspense>
      ) : (
        <Skeleton active />
      )}
    </div>
  );
}
