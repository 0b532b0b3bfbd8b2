import type { TFunction } from 'i18next';
import type { WfAssignee, WfEdge, WfNode } from './graph-model.ts';

/** Names of users, roles and units by id (ids not known yet show as they are). */
export interface NameBook {
  user(id: string): string;
  role(id: string): string;
  unit(id: string): string;
  field(ref: string): string;
}

const list = (t: TFunction, names: string[], max = 3) =>
  names.length > max ? `${names.slice(0, max).join('、')} ${t('summary.more', { count: names.length - max })}` : names.join('、');

export function assigneeText(t: TFunction, a: WfAssignee, names: NameBook): string {
  switch (a.kind) {
    case 'user':
      return t('summary.users', { names: list(t, a.userIds.map(names.user)) });
    case 'role':
      return t('summary.roles', { names: list(t, a.roleIds.map(names.role)) });
    case 'unit':
      return t('summary.units', { names: list(t, a.unitIds.map(names.unit)) });
    case 'initiatorLeader':
      return a.level === 1 ? t('summary.directLeader') : t('summary.leader', { level: a.level });
    case 'initiator':
      return t('summary.initiator');
    case 'formField':
      return t('summary.formField', { field: a.controlCode ? names.field(a.controlCode) : '?' });
    case 'chosenAtSubmit':
      return t('summary.chosenAtSubmit');
  }
}

/** The line a node card shows under its header (DingTalk style: who, and how). */
export function nodeSummary(t: TFunction, node: WfNode, names: NameBook): { text: string; empty: boolean } {
  switch (node.type) {
    case 'start':
      return { text: t('summary.start'), empty: false };
    case 'approval': {
      const c = node.config;
      if (c.assignees.length === 0) return { text: t('summary.noAssignees'), empty: true };
      const who = c.assignees.map((a) => assigneeText(t, a, names)).join('；');
      const mode = c.mode === 'vote' ? `${t('props.modes.vote').split(/[（(]/)[0]} ${c.votePassPercent ?? '?'}%` : t(`props.modes.${c.mode}`).split(/[（(]/)[0];
      return { text: c.assignees.length > 1 || c.mode !== 'or' ? `${who} · ${mode}` : who, empty: false };
    }
    case 'cc':
      return node.config.recipients.length === 0
        ? { text: t('summary.noRecipients'), empty: true }
        : { text: node.config.recipients.map((a) => assigneeText(t, a, names)).join('；'), empty: false };
    case 'automatic':
      return node.config.assignments.length === 0
        ? { text: t('summary.noAssignments'), empty: true }
        : { text: node.config.assignments.map((a) => `${a.controlCode ? names.field(a.controlCode) : '?'} = ${a.formula}`).join('；'), empty: false };
    default:
      return { text: t(`nodeHints.${node.type}`), empty: false };
  }
}

/** An edge's label: a condition branch's formula or 默认, with its priority. */
export function edgeLabel(t: TFunction, edge: WfEdge, fromExclusive: boolean): { text: string; isDefault: boolean; empty: boolean } | null {
  if (!fromExclusive) return edge.name ? { text: edge.name, isDefault: false, empty: false } : null;
  if (edge.isDefault) return { text: edge.name || t('summary.conditionDefault'), isDefault: true, empty: false };
  const condition = edge.condition?.trim();
  return { text: edge.name || condition || t('summary.conditionEmpty'), isDefault: false, empty: !condition };
}
