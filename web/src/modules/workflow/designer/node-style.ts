import { ApartmentOutlined, CheckCircleOutlined, ForkOutlined, MergeCellsOutlined, PlayCircleOutlined, SendOutlined, ThunderboltOutlined, UserOutlined } from '@ant-design/icons';
import type { ComponentType } from 'react';
import type { WfNodeType } from './graph-model.ts';

/** Header colours and icons of the node cards (DingTalk approval style). */
export const NODE_STYLE: Record<WfNodeType, { color: string; icon: ComponentType }> = {
  start: { color: '#576a95', icon: PlayCircleOutlined },
  approval: { color: '#ff943e', icon: UserOutlined },
  cc: { color: '#3296fa', icon: SendOutlined },
  exclusive: { color: '#15bc83', icon: ForkOutlined },
  parallel: { color: '#718dff', icon: ApartmentOutlined },
  join: { color: '#718dff', icon: MergeCellsOutlined },
  automatic: { color: '#9254de', icon: ThunderboltOutlined },
  end: { color: '#8c8c8c', icon: CheckCircleOutlined },
};

/** Nodes the palette offers (one start per graph: it is never added from the palette). */
export const PALETTE_TYPES: WfNodeType[] = ['approval', 'cc', 'exclusive', 'parallel', 'join', 'automatic', 'end'];

/** Gateways and start/end render as compact pills. */
export const isCompact = (type: WfNodeType) => type === 'start' || type === 'end' || type === 'exclusive' || type === 'parallel' || type === 'join';
