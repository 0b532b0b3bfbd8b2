import { Tag } from 'antd';
import { FLOW_STATUS, type TFlowStatus } from '@tessera/core/contracts/workflow-runtime';
import { useTranslation } from 'react-i18next';
import { registerTexts } from '../i18n/i18n.ts';

// A record's approval status (system column FlowStatus), as the record page and the lists show it.
registerTexts('flowStatus', {
  'zh-CN': { 0: '草稿', 1: '审批中', 2: '已通过', 3: '已驳回', 4: '已撤回' },
  'en-US': { 0: 'Draft', 1: 'In approval', 2: 'Approved', 3: 'Rejected', 4: 'Withdrawn' },
});

const COLORS: Record<TFlowStatus, string> = { 0: 'default', 1: 'processing', 2: 'success', 3: 'error', 4: 'warning' };
const VALUES = Object.values(FLOW_STATUS);

/** The statuses as select options (a list filter). */
export function useFlowStatusOptions() {
  const { t } = useTranslation('flowStatus');
  return VALUES.map((v) => ({ value: String(v), label: t(String(v)) }));
}

/** The approval status as a coloured tag. */
export function FlowStatusTag({ value, ...rest }: { value: unknown } & Omit<React.ComponentProps<typeof Tag>, 'color' | 'children'>) {
  const { t } = useTranslation('flowStatus');
  const status = Number(value ?? 0);
  return (
    <Tag color={COLORS[status as TFlowStatus] ?? 'default'} {...rest}>
      {t(String(status), { defaultValue: String(status) })}
    </Tag>
  );
}
