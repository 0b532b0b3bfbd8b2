import { Table, Typography } from 'antd';
import { formatControlValue } from '@tessera/core/controls/registry';
import { summaryOf, type SummaryKind, type TDataControl } from '@tessera/core/page-definition';
import type { TFunction } from 'i18next';
import type { ReactElement } from 'react';
import './renderer-texts.ts';

/** A summary as a person reads it: a sum at the column's accuracy, an average with at least two decimals, a count as a whole number. */
export function formatSummary(control: TDataControl, kind: SummaryKind, value: number | null, locale: 'zh-CN' | 'en-US'): string {
  if (value === null) return '—';
  if (kind === 'count') return formatControlValue({ ...control, controlType: 1002 }, value, { locale });
  if (kind === 'avg' && Number(control.controlType) === 1002) return formatControlValue({ ...control, controlType: 1003, extraProperties: { ...control.extraProperties, accuracy: 2 } }, value, { locale });
  return formatControlValue(control, value, { locale });
}

/**
 * The totals row under a table (child grid or list): one cell per column, in the columns' order;
 * a column with a summary shows "合计 1,234.50" (sum / average / count), the others stay empty.
 * `leading`: cells before the first column (selection, row number). A function, not a component:
 * the table recognises its fixed summary (kept in view under a scrolling or virtual body) by the
 * element's type.
 */
export function summaryRow(props: {
  columns: readonly (TDataControl | null)[];
  totals: (control: TDataControl, kind: SummaryKind) => number | null;
  leading: number;
  t: TFunction;
  language: string;
}): ReactElement {
  const { columns, totals, leading, t } = props;
  const locale = props.language === 'en-US' ? 'en-US' : 'zh-CN';
  return (
    <Table.Summary fixed>
      <Table.Summary.Row data-testid="summary-row">
        {Array.from({ length: leading }, (_, i) => (
          <Table.Summary.Cell key={`lead-${i}`} index={i} />
        ))}
        {columns.map((control, i) => {
          const kind = control ? summaryOf(control) : null;
          return (
            <Table.Summary.Cell key={control?.id ?? `c-${i}`} index={leading + i}>
              {control && kind && (
                <span data-summary={control.code}>
                  <Typography.Text type="secondary">{t(`pageRenderer:summary.${kind}`)} </Typography.Text>
                  <Typography.Text strong>{formatSummary(control, kind, totals(control, kind), locale)}</Typography.Text>
                </span>
              )}
            </Table.Summary.Cell>
          );
        })}
      </Table.Summary.Row>
    </Table.Summary>
  );
}
