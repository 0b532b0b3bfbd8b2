import { Input, Typography } from 'antd';
import { IDENTIFIER_PATTERN, isReservedColumnName } from '@tessera/core/contracts/pages';
import { useTranslation } from 'react-i18next';
import { allViews } from '../tree-ops.ts';
import type { WidgetProps } from './widget-types.ts';

/** Why a code is not usable here, or null. Codes are unique page-wide, case-insensitively. */
export function codeProblem(ctx: WidgetProps['ctx'], code: string, t: (k: string) => string): string | null {
  if (!IDENTIFIER_PATTERN.test(code)) return t('props.codeRule');
  if (ctx.kind === 'control' && isReservedColumnName(code)) return t('props.codeReserved');
  const lower = code.toLowerCase();
  for (const v of allViews(ctx.def)) {
    if (v.id !== ctx.id && ctx.kind === 'view' && v.code.toLowerCase() === lower) return t('props.codeTaken');
    if (ctx.kind === 'control' && ctx.view?.id === v.id && v.dataControls.some((c) => c.id !== ctx.id && c.code.toLowerCase() === lower)) return t('props.codeTaken');
  }
  return null;
}

export function CodeInput({ ctx, value, onChange, id }: WidgetProps<string>) {
  const { t } = useTranslation('pageDesigner');
  const text = typeof value === 'string' ? value : '';
  const problem = codeProblem(ctx, text, t);
  return (
    <>
      <Input id={id} value={text} maxLength={40} status={problem ? 'error' : undefined} onChange={(e) => onChange(e.target.value.trim())} style={{ fontFamily: 'ui-monospace, Menlo, Consolas, monospace' }} />
      {problem && <Typography.Text type="danger" style={{ fontSize: 12 }} role="alert">{problem}</Typography.Text>}
    </>
  );
}
