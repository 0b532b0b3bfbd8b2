import { useQuery } from '@tanstack/react-query';
import { FLOW_STATUS } from '@tessera/core/contracts/workflow-runtime';
import { useMemo } from 'react';
import type { RecordEditGrant } from '../../../shared/components/record-extras.ts';
import { workflowForRecordQuery } from './api.ts';

/**
 * The record form's edit grant from the workflow (registered by the shell, module-pages.tsx): on a
 * record in approval, the field permissions of the caller's pending task (for-record, the same
 * query the approval bar reads, so approving refreshes both). Null without a pending task.
 */
export function useApproverGrant(pageId: string, recordId: string | null, flowStatus: number): RecordEditGrant | null {
  const inApproval = Boolean(recordId) && flowStatus === FLOW_STATUS.inApproval;
  const state = useQuery({ ...workflowForRecordQuery(pageId, recordId ?? ''), enabled: inApproval });
  const permissions = inApproval ? (state.data?.fieldPermissions ?? null) : null;
  return useMemo(() => (permissions ? { fieldPermissions: permissions } : null), [permissions]);
}
