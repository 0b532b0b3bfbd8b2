import { Input, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormulaEditor } from '../../../../shared/components/formula-editor/FormulaEditor.tsx';
import { formulaReferencesFor, formulaSchemaFor } from '../formula-schema.ts';
import type { WidgetProps } from './widget-types.ts';
import { ControlTypeId } from '@tessera/core/controls/registry';

type Kind = 'none' | 'fixed' | 'formula' | 'serverDate' | 'currentUser' | 'currentOrg' | 'true' | 'false';
type DefaultValue = string | number | boolean | null | undefined;

/**
 * spec §4 default values: a fixed value, a formula (`=…`), the server date (`1`, dates), the
 * current user (`2`) or their organisation unit (`3`) for pickers, `true` for yes/no.
 */
export function DefaultValueEditor({ ctx, value, onChange, id }: WidgetProps<DefaultValue>) {
  const { t } = useTranslation('pageDesigner');
  const type = Number(ctx.control?.controlType);
  const text = value === null || value === undefined ? '' : String(value);
  const kinds: Kind[] =
    type === ControlTypeId.Date
      ? ['none', 'serverDate', 'fixed', 'formula']
      : type === ControlTypeId.UserOrgPicker || type === ControlTypeId.Id || type === ControlTypeId.Lookup
        ? ['none', 'currentUser', 'currentOrg', 'formula']
        : type === ControlTypeId.Boolean
          ? ['none', 'true', 'false', 'formula']
          : ['none', 'fixed', 'formula'];
  const kind: Kind = !text
    ? 'none'
    : text.startsWith('=')
      ? 'formula'
      : type === ControlTypeId.Date && text === '1'
        ? 'serverDate'
        : kinds.includes('currentUser') && text === '2'
          ? 'currentUser'
          : kinds.includes('currentOrg') && text === '3'
            ? 'currentOrg'
            : type === ControlTypeId.Boolean && (text === 'true' || text === 'false')
              ? (text as Kind)
              : 'fixed';
  const setKind = (k: Kind) => {
    const fixed: Partial<Record<Kind, DefaultValue>> = { none: null, serverDate: '1', currentUser: '2', currentOrg: '3', true: 'true', false: 'false', formula: '=', fixed: '' };
    onChange(fixed[k] ?? null);
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={6}>
      <Select id={id} value={kind} onChange={setKind} options={kinds.map((k) => ({ value: k, label: t(`props.default.${k}`) }))} style={{ width: '100%' }} />
      {kind === 'fixed' && (
        <Input
          value={text}
          placeholder={type === ControlTypeId.Date ? 'YYYY-MM-DD' : undefined}
          onChange={(e) => onChange(type === ControlTypeId.Integer || type === ControlTypeId.Decimal || type === ControlTypeId.Currency ? (e.target.value.trim() === '' ? '' : e.target.value.trim()) : e.target.value)}
          aria-label={t('props.default.fixed')}
        />
      )}
      {kind === 'formula' && (
        <FormulaEditor
          value={text.slice(1)}
          onChange={(v) => onChange(`=${v}`)}
          schema={formulaSchemaFor(ctx.def, ctx.view)}
          references={formulaReferencesFor(ctx.def, ctx.view, ctx.language)}
          aria-label={t('props.default.formula')}
        />
      )}
    </Space>
  );
}
