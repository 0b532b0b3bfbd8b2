import { ExclamationCircleFilled, PlusOutlined } from '@ant-design/icons';
import { BaseEdge, EdgeLabelRenderer, getSmoothStepPath, Handle, Position, type Edge, type EdgeProps, type Node, type NodeProps } from '@xyflow/react';
import { Dropdown, Tooltip } from 'antd';
import { memo } from 'react';
import type { WfNode } from './graph-model.ts';
import { isCompact, NODE_STYLE } from './node-style.ts';

/** A node's state in an instance (the read-only progress view of a later issue). */
export type NodeProgress = 'done' | 'active' | 'pending' | 'rejected';

export interface WfNodeData extends Record<string, unknown> {
  node: WfNode;
  typeLabel: string;
  /** What the node does (shown under a compact node's name when the name is its type's). */
  hint: string;
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
  /** x of a side lane around nodes in the way (see `detourLane`). */
  lane?: number | null;
  hasProblem: boolean;
  defaultText: string;
  readOnly: boolean;
  /** Menu entries of the "+" on the edge (insert a node there). */
  insertItems: { key: string; label: string }[];
  insertLabel: string;
  onSelect(id: string): void;
  onInsert(id: string, type: string): void;
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
            <span className="wf-node-type">{node.name && node.name !== data.typeLabel ? data.typeLabel : data.hint}</span>
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

/** A polyline down, sideways to the lane, down the lane, back and into the target, with rounded corners. */
function lanePath(sx: number, sy: number, tx: number, ty: number, lane: number): [string, number, number] {
  const y1 = sy + 18;
  const y2 = ty - 18;
  const points: [number, number][] = [
    [sx, sy],
    [sx, y1],
    [lane, y1],
    [lane, y2],
    [tx, y2],
    [tx, ty],
  ];
  const r = 8;
  let d = `M ${sx} ${sy}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [px, py] = points[i - 1]!;
    const [cx, cy] = points[i]!;
    const [nx, ny] = points[i + 1]!;
    const inLen = Math.hypot(cx - px, cy - py);
    const outLen = Math.hypot(nx - cx, ny - cy);
    const rr = Math.min(r, inLen / 2, outLen / 2);
    const bx = cx - (rr * (cx - px)) / (inLen || 1);
    const by = cy - (rr * (cy - py)) / (inLen || 1);
    const ax = cx + (rr * (nx - cx)) / (outLen || 1);
    const ay = cy + (rr * (ny - cy)) / (outLen || 1);
    d += ` L ${bx} ${by} Q ${cx} ${cy} ${ax} ${ay}`;
  }
  d += ` L ${tx} ${ty}`;
  return [d, lane, (y1 + y2) / 2];
}

/** An edge with its branch label (condition formula, or 默认 for the default branch). */
export function WorkflowEdge({ id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, markerEnd, selected, data }: EdgeProps<WfFlowEdge>) {
  const lane = data?.lane;
  const [path, labelX, labelY] =
    lane !== null && lane !== undefined
      ? lanePath(sourceX, sourceY, targetX, targetY, lane)
      : getSmoothStepPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, borderRadius: 10, offset: 24 });
  const label = data?.label;
  const classes = ['wf-edge-label'];
  if (label?.isDefault) classes.push('is-default');
  if (label?.empty || data?.hasProblem) classes.push('is-problem');
  if (selected) classes.push('is-selected');
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} className={selected ? 'wf-edge-selected' : undefined} />
      {(label || !data?.readOnly) && (
        <EdgeLabelRenderer>
          <div className="wf-edge-tools nodrag nopan" style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}>
            {label && (
              <button type="button" className={classes.join(' ')} onClick={() => data?.onSelect(id)} data-testid={`wf-edge-label-${id}`} tabIndex={-1}>
                {label.isDefault ? <span className="wf-edge-default">{data?.defaultText}</span> : null}
                <span className="wf-edge-text">{label.isDefault && label.text === data?.defaultText ? '' : label.text}</span>
              </button>
            )}
            {data && !data.readOnly && (
              <Dropdown trigger={['click']} menu={{ items: data.insertItems, onClick: ({ key }) => data.onInsert(id, key) }}>
                <button type="button" className="wf-edge-add" aria-label={data.insertLabel} title={data.insertLabel} data-testid={`wf-edge-add-${id}`}>
                  <PlusOutlined />
                </button>
              </Dropdown>
            )}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
}

export const nodeTypes = { wf: WorkflowNodeCard };
export const edgeTypes = { wf: WorkflowEdge };
