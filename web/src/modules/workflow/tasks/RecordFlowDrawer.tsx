import { Descriptions, Divider, Drawer, Grid, type DescriptionsProps } from 'antd';
import { useTranslation } from 'react-i18next';
import RecordApproval from '../runtime/RecordApproval.tsx';
import './i18n.ts';

export interface RecordFlowDrawerProps {
  title: string;
  /** The record the flow runs on; null: the drawer is closed. */
  record: { pageId: string; recordId: string } | null;
  /** What the list knows of the task or instance (flow, node, initiator, times). */
  items: DescriptionsProps['items'];
  onClose(): void;
  /** The approval bar changed the flow (approved, withdrew, took back…). */
  onChanged(): void;
  testId?: string;
}

/**
 * A task or instance opened from the task centre: what the list knows of it and the record's
 * approval bar (the same one the record's page shows: approve / reject / return / transfer / more,
 * withdraw, urge, take back, the progress drawer with the history). Wide on a desk, the whole
 * width on a phone.
 */
export function RecordFlowDrawer({ title, record, items, onClose, onChanged, testId }: RecordFlowDrawerProps) {
  const { t } = useTranslation('workflowTasks');
  const phone = Grid.useBreakpoint().md === false;
  return (
    <Drawer open={!!record} onClose={onClose} title={title} size={phone ? '100%' : 880} destroyOnHidden data-testid={testId}>
      <Descriptions size="small" bordered column={phone ? 1 : 2} items={items} />
      <Divider titlePlacement="start">{t('drawer.approval')}</Divider>
      {record && (
        <div>
          {/* flowStatus 1: a record with a flow; the bar reads the actual status itself. */}
          <RecordApproval key={`${record.pageId}|${record.recordId}`} pageId={record.pageId} recordId={record.recordId} flowStatus={1} onChanged={onChanged} />
        </div>
      )}
    </Drawer>
  );
}
