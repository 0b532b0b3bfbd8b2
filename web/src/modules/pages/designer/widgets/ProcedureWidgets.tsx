import { Select, Space, Typography } from 'antd';
import { FACTORY_TYPES } from '@tessera/core/contracts/data-factory';
import type { TProcedureButton } from '@tessera/core/contracts/business-data';
import { useTranslation } from 'react-i18next';
import { FormulaEditor } from '../../../../shared/components/formula-editor/FormulaEditor.tsx';
import { useRunnableProcedures } from '../../api/designer-lookups.ts';
import { formulaReferencesFor, formulaSchemaFor } from '../formula-schema.ts';
import type { WidgetProps } from './widget-types.ts';

type Parameters = TProcedureButton['procedureParameters'];

/** The procedure of a "run procedure" button: the ones the designer may run; picking one clears values of parameters it lacks. */
export function ProcedurePicker({ id, value, onChange, setOther, ctx }: WidgetProps<string | null>) {
  const { t } = useTranslation('pageDesigner');
  const procedures = useRunnableProcedures();
  const items = procedures.data?.items ?? [];
  const button = ctx.def.pageButtons.find((b) => b.id === ctx.id) as { procedureParameters?: Parameters } | undefined;
  return (
    <Select
      id={id}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      style={{ width: '100%' }}
      loading={procedures.isLoading}
      placeholder={t('props.pickProcedure')}
      notFoundContent={procedures.isLoading ? undefined : t('props.noProcedures')}
      status={value && procedures.data && !items.some((p) => p.id === value) ? 'error' : undefined}
      value={value || undefined}
      onChange={(next: string | undefined) => {
        onChange(next ?? null);
        const names = new Set(items.find((p) => p.id === next)?.parameters.map((p) => p.name) ?? []);
        setOther('procedureParameters', (button?.procedureParameters ?? []).filter((p) => names.has(p.name)));
      }}
      options={items.map((p) => ({ value: p.id, label: `${p.name} (${p.code})` }))}
      data-testid="prop-procedure"
    />
  );
}

/** A formula per IN parameter of the button's procedure, over the saved record; an empty one is left out (the parameter's default). */
export function ProcedureParametersEditor({ value, onChange, ctx }: WidgetProps<Parameters | null>) {
  const { t } = useTranslation('pageDesigner');
  const procedures = useRunnableProcedures();
  const button = ctx.def.pageButtons.find((b) => b.id === ctx.id) as { procedureId?: string | null } | undefined;
  const procedure = procedures.data?.items.find((p) => p.id === button?.procedureId);
  if (!procedure) return <Typography.Text type="secondary">{t('props.pickProcedureFirst')}</Typography.Text>;
  if (procedure.parameters.length === 0) return <Typography.Text type="secondary">{t('props.procedureNoParameters')}</Typography.Text>;
  const list = value ?? [];
  const formulaOf = (name: string) => list.find((p) => p.name === name)?.formula ?? '';
  const set = (name: string, formula: string) => {
    const others = list.filter((p) => p.name !== name);
    // In the procedure's order, the empty ones left out.
    const next = procedure.parameters.map((p) => (p.name === name ? { name, formula } : (others.find((o) => o.name === p.name) ?? { name: p.name, formula: '' }))).filter((p) => p.formula.trim() !== '');
    onChange(next);
  };
  const master = ctx.def.viewControls[0] ?? null;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={8}>
      {procedure.parameters.map((p) => (
        <div key={p.name} data-testid={`procedure-parameter-${p.name}`}>
          <Typography.Text code>{p.name}</Typography.Text>{' '}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('props.procedureParameterHint', { type: FACTORY_TYPES[p.type] })}
          </Typography.Text>
          <FormulaEditor value={formulaOf(p.name)} onChange={(f) => set(p.name, f)} schema={formulaSchemaFor(ctx.def, master)} references={formulaReferencesFor(ctx.def, master, ctx.language)} aria-label={p.name} testable />
        </div>
      ))}
    </Space>
  );
}
