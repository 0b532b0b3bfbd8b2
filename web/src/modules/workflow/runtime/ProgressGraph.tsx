import { Background, BackgroundVariant, Controls, MarkerType, ReactFlow, ReactFlowProvider } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { TWorkflowInstanceDetail } from '@tessera/core/contracts/workflow-runtime';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFlowColours } from '../designer/flow-colours.ts';
import { edgeTypes, nodeTypes, type NodeProgress, type WfFlowEdge, type WfFlowNode } from '../designer/FlowElements.tsx';
import { layoutGraph } from '../designer/graph-layout.ts';
import { localizeDefaultNames } from '../designer/graph-model.ts';
import { edgeLabel } from '../designer/node-summary.ts';
import '../designer/flow-designer.css';
import '../i18n.ts';

/**
 * The instance's pinned graph, read-only, coloured by progress (done green, current outlined,
 * rejected red, not reached faded); approval and CC nodes name their people from the instance's
 * tasks. Laid out afresh so it fits the drawer. Loaded lazily with the progress drawer.
 */
export default function ProgressGraph({ detail }: { detail: TWorkflowInstanceDetail }) {
  const { t } = useTranslation('workflow');
  const { style, dark } = useFlowColours();
  const { nodes, edges } = useMemo(() => {
    const graph = layoutGraph(localizeDefaultNames(detail.graph, (type) => t(`nodeTypes.${type}`)));
    const state = new Map(detail.nodes.map((n) => [n.nodeId, n.state]));
    const rejected = new Set(detail.tasks.filter((x) => x.status === 'rejected').map((x) => x.nodeId));
    const people = new Map<string, string[]>();
    for (const task of detail.tasks) {
      if (task.status === 'transferred' || task.status === 'cancelled') continue;
      const list = people.get(task.nodeId) ?? [];
      const name = task.assigneeName ?? task.assigneeId;
      if (!list.includes(name)) people.set(task.nodeId, [...list, name]);
    }
    const progressOf = (id: string): NodeProgress => {
      const s = state.get(id);
      if (rejected.has(id) && detail.status === 'rejected') return 'rejected';
      return s === 'done' ? 'done' : s === 'active' ? 'active' : 'pending';
    };
    const rfNodes: WfFlowNode[] = graph.nodes.map((n) => {
      const summary = people.get(n.id)?.join('、') ?? '';
      return {
        id: n.id,
        type: 'wf',
        position: n.position,
        draggable: false,
        connectable: false,
        selectable: false,
        ariaLabel: `${n.name} · ${t(`progressStates.${progressOf(n.id)}`)}${summary ? ` · ${summary}` : ''}`,
        data: { node: n, typeLabel: t(`nodeTypes.${n.type}`), hint: t(`nodeHints.${n.type}`), summary: summary || t(`progressStates.${progressOf(n.id)}`), summaryEmpty: false, problems: [], progress: progressOf(n.id), readOnly: true },
      };
    });
    const rfEdges: WfFlowEdge[] = graph.edges.map((e) => ({
      id: e.id,
      source: e.source,
      target: e.target,
      type: 'wf',
      selectable: false,
      markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16, color: '#a0a8b8' },
      data: {
        label: edgeLabel(t, e, graph.nodes.find((n) => n.id === e.source)?.type === 'exclusive'),
        priority: e.priority,
        lane: null,
        hasProblem: false,
        defaultText: t('summary.conditionDefault'),
        readOnly: true,
        insertItems: [],
        insertLabel: '',
        onSelect: () => undefined,
        onInsert: () => undefined,
      },
    }));
    return { nodes: rfNodes, edges: rfEdges };
  }, [detail, t]);
  return (
    <ReactFlowProvider>
      <div className="wf-designer is-readonly wf-progress-graph" style={style} data-testid="workflow-progress-graph" role="region" aria-label={t('progressStates.graph')}>
        <ReactFlow<WfFlowNode, WfFlowEdge>
          // Uncontrolled (nothing here changes them): React Flow measures the nodes' handles itself and draws the edges.
          key={detail.history.length}
          defaultNodes={nodes}
          defaultEdges={edges}
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          fitView
          fitViewOptions={{ padding: 0.1, maxZoom: 1 }}
          minZoom={0.2}
          maxZoom={1.5}
          colorMode={dark ? 'dark' : 'light'}
        >
          <Background variant={BackgroundVariant.Dots} gap={16} size={1} color="#c9ced6" />
          <Controls showInteractive={false} position="bottom-left" />
        </ReactFlow>
      </div>
    </ReactFlowProvider>
  );
}
