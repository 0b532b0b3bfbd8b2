import { QuestionCircleOutlined } from '@ant-design/icons';
import { Form, Input, InputNumber, Select, Switch, Tooltip } from 'antd';
import { VIEW_TYPES, type TDesignerProperty } from '@tessera/core/contracts/pages';
import type { TAssignment } from '@tessera/core/page-definition';
import type { TProcedureButton } from '@tessera/core/contracts/business-data';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { FormulaEditor } from '../../../../shared/components/formula-editor/FormulaEditor.tsx';
import { LocalizedTextInput } from '../../../../shared/components/LocalizedTextInput.tsx';
import { localizedTitle, viewTitle } from '../../../../shared/components/page-renderer/control-rules.ts';
import { useDocumentNumberRules } from '../../api/designer-lookups.ts';
import { formulaReferencesFor, formulaSchemaFor } from '../formula-schema.ts';
import { allViews, getPath } from '../tree-ops.ts';
import { AssignmentsEditor } from './AssignmentsEditor.tsx';
import { CodeInput } from './CodeInput.tsx';
import { DefaultValueEditor } from './DefaultValueEditor.tsx';
import { DataSourcePicker, JoinConditionsEditor, MapFieldsEditor, SourceQueryEditor, useDataSourceView } from './LookupWidgets.tsx';
import { OptionsEditor } from './OptionsEditor.tsx';
import { ProcedureParametersEditor, ProcedurePicker } from './ProcedureWidgets.tsx';
import type { WidgetContext, WidgetProps } from './widget-types.ts';

export interface PropertyFieldProps {
  ctx: WidgetContext;
  property: TDesignerProperty;
  element: object;
  onSet(path: string, value: unknown): void;
}

/** One property of the selected element, edited with the widget the palette names for it. */
export const PropertyField = memo(function PropertyField({ ctx, property, element, onSet }: PropertyFieldProps) {
  const { t } = useTranslation('pageDesigner');
  const text = (b: TDesignerProperty['title']) => ctx.palette.text(b);
  const id = `prop-${property.key.replace(/\./g, '-')}`;
  const value = getPath(element, property.key);
  const props: WidgetProps<never> = {
    ctx,
    property,
    value: value as never,
    onChange: (v: unknown) => onSet(property.key, v),
    setOther: onSet,
    id,
  };
  const label = (
    <span>
      {text(property.title)}{' '}
      {text(property.help) && (
        <Tooltip title={text(property.help)}>
          <QuestionCircleOutlined className="dz-muted-icon" />
        </Tooltip>
      )}
    </span>
  );
  return (
    <Form.Item label={label} htmlFor={id} required={property.required} style={{ marginBottom: 12 }} data-property={property.key}>
      {renderWidget(props)}
    </Form.Item>
  );

  function renderWidget(p: WidgetProps<never>) {
    switch (property.widget) {
      case 'code':
        return <CodeInput {...(p as WidgetProps<string>)} />;
      case 'localizedText':
        return <LocalizedTextInput id={id} value={(value as Record<string, string>) ?? {}} onChange={(v) => onSet(property.key, v)} />;
      case 'number':
        return (
          <InputNumber
            id={id}
            style={{ width: '100%' }}
            min={property.min}
            max={property.max}
            value={typeof value === 'number' ? value : value === '' || value == null ? null : Number(value)}
            onChange={(v) => onSet(property.key, v ?? undefined)}
          />
        );
      case 'switch':
        return (
          <Switch
            id={id}
            checked={property.key === 'defaultValue' ? value === true || value === 'true' : value === undefined ? property.default === true : value === true || value === 'true'}
            onChange={(v) => onSet(property.key, property.key === 'defaultValue' ? (v ? 'true' : null) : v)}
          />
        );
      case 'select':
      case 'dataSourceMethod':
        return (
          <Select
            id={id}
            style={{ width: '100%' }}
            value={value === null || value === undefined ? (property.choices?.some((c) => c.value === '') ? '' : undefined) : (value as string | number)}
            onChange={(v: string | number) => onSet(property.key, v === '' ? null : v)}
            options={(property.choices ?? []).map((c) => ({ value: c.value, label: text(c.title) }))}
          />
        );
      case 'options':
        return <OptionsEditor {...(p as WidgetProps<never>)} />;
      case 'defaultValue':
        return <DefaultValueEditor {...(p as WidgetProps<never>)} />;
      case 'formula':
        return (
          <FormulaEditor
            id={id}
            value={typeof value === 'string' ? value : ''}
            onChange={(v) => onSet(property.key, v)}
            schema={formulaSchemaFor(ctx.def, ctx.view)}
            references={formulaReferencesFor(ctx.def, ctx.view, ctx.language)}
          />
        );
      case 'documentNumberRule':
        return <RulePicker id={id} value={value as string | null} onChange={(v) => onSet(property.key, v)} />;
      case 'dataSource':
        return <DataSourcePicker {...(p as WidgetProps<never>)} />;
      case 'sourceQuery':
        return <SourceQueryEditor {...(p as WidgetProps<never>)} />;
      case 'defaultSourceQuery':
        return <SourceQueryEditor {...(p as WidgetProps<never>)} purpose="default" />;
      case 'mapFields':
        return <MapFieldsEditor {...(p as WidgetProps<never>)} />;
      case 'joinConditions':
        return <JoinConditionsEditor {...(p as WidgetProps<never>)} />;
      case 'controlRef':
        return <ControlRefSelect id={id} ctx={ctx} property={property} value={value as string | null} onChange={(v) => onSet(property.key, v)} />;
      case 'viewRef':
        return (
          <Select
            id={id}
            allowClear
            style={{ width: '100%' }}
            value={(value as string) || undefined}
            placeholder={t('props.none')}
            onChange={(v: string | undefined) => onSet(property.key, v ?? null)}
            options={allViews(ctx.def)
              .filter((v) => v.id !== ctx.id && Number(v.viewType) !== VIEW_TYPES.container)
              .map((v) => ({ value: v.id, label: `${viewTitle(v, ctx.language)} (${v.code})` }))}
          />
        );
      case 'buttonAction':
        return (
          <Select
            id={id}
            style={{ width: '100%' }}
            value={(value as string) ?? 'custom'}
            onChange={(v: string) => onSet(property.key, v)}
            options={ctx.palette.raw.buttonActions
              .filter((a) => a.scope === 'both' || (ctx.view ? a.scope === 'view' : a.scope === 'page'))
              .map((a) => ({ value: a.code, label: a.enabled ? text(a.title) : `${text(a.title)}（${t('props.notYet')}）`, disabled: !a.enabled }))}
          />
        );
      case 'procedure':
        return <ProcedurePicker {...(p as WidgetProps<string | null>)} />;
      case 'procedureParameters':
        return <ProcedureParametersEditor {...(p as WidgetProps<TProcedureButton['procedureParameters'] | null>)} />;
      default:
        if ((property.widget as string) === 'assignments') {
          return <AssignmentsEditor ctx={ctx} value={(value as TAssignment[]) ?? []} onChange={(v) => onSet(property.key, v)} />;
        }
        if (property.key === 'extraProperties.dataSourceTitle') return <DisplayFieldSelect id={id} ctx={ctx} value={value as string | null} onChange={(v) => onSet(property.key, v)} />;
        return <Input id={id} value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''} onChange={(e) => onSet(property.key, e.target.value)} />;
    }
  }
});

function RulePicker({ id, value, onChange }: { id: string; value: string | null; onChange(v: string | null): void }) {
  const { t } = useTranslation('pageDesigner');
  const rules = useDocumentNumberRules();
  return (
    <Select
      id={id}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      style={{ width: '100%' }}
      loading={rules.isLoading}
      placeholder={t('props.pickRule')}
      value={value || undefined}
      onChange={(v: string | undefined) => onChange(v ?? null)}
      options={(rules.data?.items ?? []).map((r) => ({ value: r.id, label: `${r.name} (${r.code}) · ${r.nextNumber}` }))}
    />
  );
}

/** Controls of the element's view (parent control, parent code, foreign key); views may also pick the system key. */
function ControlRefSelect({ id, ctx, property, value, onChange }: { id: string; ctx: WidgetContext; property: TDesignerProperty; value: string | null; onChange(v: string | null): void }) {
  const { t } = useTranslation('pageDesigner');
  const byCode = property.key !== 'parentDataControlId';
  const controls = (ctx.view?.dataControls ?? []).filter((c) => c.id !== ctx.control?.id);
  const options = controls.map((c) => ({ value: byCode ? c.code : c.id, label: `${localizedTitle(c, ctx.language)} (${c.code})` }));
  if (property.key === 'associateForeignKeyCode') options.unshift({ value: 'ParentViewDataId', label: t('props.systemParentKey') });
  return <Select id={id} allowClear style={{ width: '100%' }} placeholder={t('props.none')} value={value || undefined} onChange={(v: string | undefined) => onChange(v ?? null)} options={options} />;
}

/** extraProperties.dataSourceTitle: the source field shown once a row is picked. */
function DisplayFieldSelect({ id, ctx, value, onChange }: { id: string; ctx: WidgetContext; value: string | null; onChange(v: string | null): void }) {
  const { t } = useTranslation('pageDesigner');
  const source = useDataSourceView(ctx);
  if (!source.ready) return <Input id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value || null)} placeholder={t('props.pickDataSourceFirst')} />;
  return (
    <Select
      id={id}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      style={{ width: '100%' }}
      value={value || undefined}
      onChange={(v: string | undefined) => onChange(v ?? null)}
      options={source.fields.map((f) => ({ value: f.code, label: f.title && f.title !== f.code ? `${f.title} (${f.code})` : f.code }))}
    />
  );
}
