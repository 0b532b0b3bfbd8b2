import { Alert, Button, Descriptions, Drawer, Grid, Skeleton, Space, Tag, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWorkflowInstance } from '../runtime/api.ts';
import { FlowTimeline } from '../runtime/FlowTimeline.tsx';
import { INSTANCE_STATUS_COLORS } from '../tasks/DoneTasksTab.tsx';
import { formatTime } from '../tasks/task-format.ts';
import type { InterventionName } from './api.ts';
import { CurrentNodes } from './CurrentNodes.tsx';
import { InterventionModal } from './InterventionModal.tsx';
import './i18n.ts';

const ProgressGraph = lazy(() => import('../runtime/ProgressGraph.tsx'));
const INTERVENTIONS: InterventionName[] = ['reassign', 'jump', 'assignees', 'remind', 'terminate'];

/** One instance for flow management: where it stands, its graph and history, and the interventions while it runs. */
export function InstanceDrawer({ instanceId, onClose }: { instanceId: string | null; onClose(): void }) {
  const { t } = useTranslation(['workflowInstances', 'workflowRuntime']);
  const phone = Grid.useBreakpoint().md === false;
  const detail = useWorkflowInstance(instanceId);
  const [settled, setSettled] = useState(false);
  const [acting, setActing] = useState<InterventionName | null>(null);
  const d = detail.data?.id === instanceId ? detail.data : undefined;
  return (
    <Drawer
      open={!!instanceId}
      onClose={onClose}
      afterOpenChange={setSettled}
      title={d ? t('drawerTitle', { title: d.recordTitle }) : t('detail')}
      size={phone ? '100%' : 880}
      destroyOnHidden
      data-testid="instance-drawer"
    >
      {!d ? (
        <Skeleton active />
      ) : (
        <>
          {d.status === 'running' ? (
            <Space wrap style={{ marginBottom: 12 }} data-testid="instance-interventions">
              {INTERVENTIONS.map((name) => (
                <Button key={name} danger={name === 'terminate'} onClick={() => setActing(name)} data-testid={`intervene-${name}`}>
                  {t(`actions.${name}`)}
                </Button>
              ))}
            </Space>
          ) : (
            <Alert type="info" showIcon title={t('ended')} style={{ marginBottom: 12 }} />
          )}
          <Descriptions
            size="small"
            bordered
            column={phone ? 1 : 2}
            items={[
              { key: 'flow', label: t('column.flow'), children: `${d.definitionName} · ${t('version', { version: d.version })}` },
              { key: 'record', label: t('column.record'), children: d.recordTitle },
              { key: 'initiator', label: t('column.initiator'), children: d.initiatorName ?? d.initiatorId },
              { key: 'status', label: t('column.status'), children: <Tag color={INSTANCE_STATUS_COLORS[d.status]} data-testid="instance-drawer-status">{t(`workflowRuntime:instanceStatus.${d.status}`)}</Tag> },
              { key: 'started', label: t('column.started'), children: formatTime(d.startedTime) },
              { key: 'ended', label: t('column.ended'), children: formatTime(d.endedTime) },
              ...(d.currentNodes.length ? [{ key: 'current', label: t('column.current'), span: phone ? 1 : 2, children: <CurrentNodes instance={d} /> }] : []),
            ]}
          />
          {settled && (
            <div style={{ height: phone ? 320 : 380, marginTop: 16 }}>
              <Suspense fallback={<Skeleton active />}>
                <ProgressGraph detail={d} />
              </Suspense>
            </div>
          )}
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('history')}
          </Typography.Title>
          <div data-testid="workflow-history">
            <FlowTimeline detail={d} />
          </div>
          {acting && <InterventionModal key={acting} name={acting} detail={d} onClose={() => setActing(null)} />}
        </>
      )}
    </Drawer>
  );
}
