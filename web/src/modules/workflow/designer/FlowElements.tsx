import { ExclamationCircleFilled } from '@ant-design/icons';
import { BaseEdge, EdgeLabelRenderer, getSmoothStepPath, Handle, Position, type Edge, type EdgeProps, type Node, type NodeProps } from '@xyflow/react';
import { Tooltip } from 'antd';
import { memo } from 'react';
import type { WfNode } from './graph-model.ts';
import { isCompact, NODE_STYLE } from './node-style.ts';

/** A node's state in an instance (the read-only progress view of a later issue). */
export type NodeProgress = 'done' | 'active' | 'pending' | 'rejected';

export interface WfNodeData extends Record<string, unknown> {
  node: WfNode;
  typeLabel: string;
  summary: string;
  summaryEmpty: boolean;
  problems: string[];
  progress?: NodeProgress;
  readOnly: boolean;
}
export type WfFlowNode = Node<WfNodeData, 'wf'>;

export interface WfEdgeData extends Record<string, unknown> {
  label: { text: string; isDefault: boolean; empty: boolean } | null;
  priority?: number;
  hasProblem: boolean;
  defaultText: string;
  onSelect(id: string): void;
}
export type WfFlowEdge = Edge<WfEdgeData, 'wf'>;

function ProblemMark({ problems }: { problems: string[] }) {
  if (problems.length === 0) return null;
  return (
    <Tooltip title={<ul className="wf-problem-tip">{problems.map((p, i) => <li key={i}>{p}</li>)}</ul>}>
      <span className="wf-node-problem" aria-hidden>
        <ExclamationCircleFilled />
        {problems.length > 1 ? <span className="wf-node-problem-count">{problems.length}</span> : null}
      </span>
    </Tooltip>
  );
}

/** A node card: coloured header with the type and name, the summary of who / what below. */
export const WorkflowNodeCard = memo(function WorkflowNodeCard({ data, selected }: NodeProps<WfFlowNode>) {
  const { node } = data;
  const style = NODE_STYLE[node.type];
  const Icon = style.icon;
  const classes = ['wf-node', isCompact(node.type) ? 'wf-node-compact' : 'wf-node-card', `wf-node-${node.type}`];
  if (selected) classes.push('is-selected');
  if (data.problems.length) classes.push('has-problems');
  if (data.progress) classes.push(`is-${data.progress}`);
  return (
    <div className={classes.join(' ')} style={{ ['--wf-color' as string]: style.color }} data-testid={`wf-node-${node.id}`} data-node-type={node.type}>
      {node.type !== 'start' && <Handle type="target" position={Position.Top} isConnectable={!data.readOnly} />}
      {isCompact(node.type) ? (
        <div className="wf-node-pill">
          <span className="wf-node-icon">
            <Icon />
          </span>
          <span className="wf-node-texts">
            <span className="wf-node-name">{node.name || data.typeLabel}</span>
            <span className="wf-node-type">{data.typeLabel}</span>
          </span>
        </div>
      ) : (
        <>
          <div className="wf-node-header">
            <Icon />
            <span className="wf-node-name">{node.name || data.typeLabel}</span>
          </div>
          <div className={`wf-node-body${data.summaryEmpty ? ' is-empty' : ''}`}>{data.summary}</div>
        </>
      )}
      <ProblemMark problems={data.problems} />
      {node.type !== 'end' && <Handle type="source" position={Position.Bottom} isConnectable={!data.readOnly} />}
    </div>
  );
});

/** An edge with its branch label (condition formula, or 默认 for the default branch). */
export function WorkflowEdge({ id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, markerEnd, selected, data }: EdgeProps<WfFlowEdge>) {
  const [path, labelX, labelY] = getSmoothStepPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, borderRadius: 10, offset: 24 });
  const label = data?.label;
  const classes = ['wf-edge-label'];
  if (label?.isDefault) classes.push('is-default');
  if (label?.empty || data?.hasProblem) classes.push('is-problem');
  if (selected) classes.push('is-selected');
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} className={selected ? 'wf-edge-selected' : undefined} />
      {label && (
        <EdgeLabelRenderer>
          <button
            type="button"
            className={`${classes.join(' ')} nodrag nopan`}
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
            onClick={() => data?.onSelect(id)}
            data-testid={`wf-edge-label-${id}`}
            tabIndex={-1}
          >
            {label.isDefault ? <span className="wf-edge-default">{data?.defaultText}</span> : null}
            <span className="wf-edge-text">{label.isDefault && label.text === data?.defaultText ? '' : label.text}</span>
          </button>
        </EdgeLabelRenderer>
      )}
    </>
  );
}

export const nodeTypes = { wf: WorkflowNodeCard };
export const edgeTypes = { wf: WorkflowEdge };
