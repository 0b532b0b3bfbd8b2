import type { TWorkflowInstance } from '@tessera/core/contracts/workflow-runtime';
import { useTranslation } from 'react-i18next';
import './i18n.ts';

/** A running instance's current nodes, each with whom it waits for. */
export function CurrentNodes({ instance }: { instance: Pick<TWorkflowInstance, 'currentNodes'> }) {
  const { t } = useTranslation('workflowInstances');
  if (instance.currentNodes.length === 0) return <>—</>;
  return (
    <>
      {instance.currentNodes.map((n) => (
        <div key={n.nodeId}>
          {n.nodeName}：{n.pendingAssignees.map((a) => a.name ?? a.id).join('、') || t('nobody')}
        </div>
      ))}
    </>
  );
}
