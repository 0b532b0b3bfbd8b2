import { Descriptions, Drawer, Grid, Skeleton, type DescriptionsProps } from 'antd';
import { Suspense } from 'react';
import { recordView } from '../../../shared/components/record-view.ts';
import RecordApproval from '../runtime/RecordApproval.tsx';
import './i18n.ts';

export interface RecordFlowDrawerProps {
  title: string;
  /** The record the flow runs on; null: the drawer is closed. */
  record: { pageId: string; recordId: string } | null;
  /** What the list knows of the task or instance (flow, node, initiator, times). */
  items: DescriptionsProps['items'];
  onClose(): void;
  /** The approval bar changed the flow (approved, withdrew, took back…) — when it is shown alone. */
  onChanged(): void;
  testId?: string;
}

/**
 * A task or instance opened from the task centre: what the list knows of it, then the record's form
 * (read-only but for the fields the approver's node makes editable) with its approval bar — the
 * same one the record's page shows: approve / reject / return / transfer / more, withdraw, urge,
 * take back, the progress drawer. Without a registered record view, or when the caller cannot load
 * the record's page, the approval bar alone. Wide on a desk, the whole width on a phone.
 */
export function RecordFlowDrawer({ title, record, items, onClose, onChanged, testId }: RecordFlowDrawerProps) {
  const phone = Grid.useBreakpoint().md === false;
  const RecordView = recordView();
  const bar = record && <RecordApproval key={`${record.pageId}|${record.recordId}`} pageId={record.pageId} recordId={record.recordId} flowStatus={1} onChanged={onChanged} />;
  return (
    <Drawer open={!!record} onClose={onClose} title={title} size={phone ? '100%' : 960} destroyOnHidden data-testid={testId}>
      <Descriptions size="small" bordered column={phone ? 1 : 2} items={items} style={{ marginBottom: 16 }} />
      {record && RecordView ? (
        <Suspense fallback={<Skeleton active />}>
          <RecordView key={`${record.pageId}|${record.recordId}`} pageId={record.pageId} recordId={record.recordId} fallback={bar} onClose={onClose} />
        </Suspense>
      ) : (
        bar
      )}
    </Drawer>
  );
}
