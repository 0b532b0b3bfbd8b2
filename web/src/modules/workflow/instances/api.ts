import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TWorkflowFlowChoices,
  TWorkflowAssigneesInput,
  TWorkflowInstanceDetail,
  TWorkflowInstanceList,
  TWorkflowInstanceQuery,
  TWorkflowInterventionInput,
  TWorkflowJumpInput,
  TWorkflowReassignInput,
  TWorkflowTerminateInput,
} from '@tessera/core/contracts/workflow-runtime';
import { api } from '../../../shared/api/client.ts';
import { workflowRuntimeKeys } from '../runtime/api.ts';

/** Flow management (`/flows/instance`): every instance (scope all, P.FlowInstances) and the interventions on one. */
const INSTANCES = '/app/workflow-instance';

export type InstanceListQuery = Omit<Partial<TWorkflowInstanceQuery>, 'scope'>;

// Under the runtime's key: an intervention refreshes this list, the open instance and the task centre's lists.
export const workflowInstanceKeys = {
  all: (query: InstanceListQuery) => [...workflowRuntimeKeys.all, 'instances', 'all', query] as const,
};

export const useAllWorkflowInstances = (query: InstanceListQuery) =>
  useQuery({
    queryKey: workflowInstanceKeys.all(query),
    queryFn: () => api.get<TWorkflowInstanceList>(INSTANCES, { ...query, scope: 'all' } as Record<string, string | number | undefined>),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchOnMount: 'always',
  });

/** The interventions' routes (`POST /api/app/workflow-instance/{id}/{name}`) and their bodies. */
export interface InterventionInputs {
  terminate: TWorkflowTerminateInput;
  reassign: TWorkflowReassignInput;
  jump: TWorkflowJumpInput;
  assignees: TWorkflowAssigneesInput;
  remind: TWorkflowInterventionInput;
}
export type InterventionName = keyof InterventionInputs;

export const useIntervention = <N extends InterventionName>(name: N) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { instanceId: string; input: InterventionInputs[N] }) => api.post<TWorkflowInstanceDetail>(`${INSTANCES}/${v.instanceId}/${name}`, v.input, { silent: true }),
    onSettled: () => client.invalidateQueries({ queryKey: workflowRuntimeKeys.all }),
  });
};

/** The flows to filter by: the definitions that have instances (flow management's own list). */
export const useFlowChoices = () =>
  useQuery({
    queryKey: ['workflow-instances', 'flow-choices'] as const,
    queryFn: () => api.get<TWorkflowFlowChoices>('/app/workflow-instance/flows'),
    staleTime: 60_000,
    retry: false,
  });
