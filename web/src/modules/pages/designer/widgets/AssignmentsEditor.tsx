import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Select, Space, Typography } from 'antd';
import type { TAssignment } from '@tessera/core/page-definition';
import { useTranslation } from 'react-i18next';
import { FormulaEditor } from '../../../../shared/components/formula-editor/FormulaEditor.tsx';
import { localizedTitle } from '../../../../shared/components/page-renderer/control-rules.ts';
import { formulaReferencesFor, formulaSchemaFor } from '../formula-schema.ts';
import { allControls } from '../tree-ops.ts';
import type { WidgetContext } from './widget-types.ts';

/** Assignments (spec §3): a target control and the formula whose value it receives. */
export function AssignmentsEditor({ ctx, value, onChange }: { ctx: Pick<WidgetContext, 'def' | 'language'>; value: TAssignment[]; onChange(v: TAssignment[]): void }) {
  const { t } = useTranslation('pageDesigner');
  const controls = allControls(ctx.def);
  const set = (i: number, patch: Partial<TAssignment>) => onChange(value.map((a, j) => (j === i ? { ...a, ...patch } : a)));
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={8}>
      {value.map((a, i) => {
        const target = controls.find((c) => c.control.id === a.dataControlId) ?? controls.find((c) => !a.dataControlId && c.control.code === a.dataControlCode);
        return (
          <div key={i} className="dz-linkage-row" data-testid="assignment-row">
            <Space.Compact style={{ width: '100%', marginBottom: 6 }}>
              <Select
                size="small"
                style={{ width: '100%' }}
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={t('linkages.target')}
                aria-label={`${t('linkages.target')} ${i + 1}`}
                value={target?.control.id}
                status={!target && (a.dataControlId || a.dataControlCode) ? 'error' : undefined}
                onChange={(id: string) => {
                  const c = controls.find((x) => x.control.id === id);
                  set(i, { dataControlId: id, dataControlCode: c?.control.code ?? null });
                }}
                options={controls.map(({ control, view }) => ({ value: control.id, label: `${view.code}.${control.code} ${localizedTitle(control, ctx.language)}` }))}
              />
              <Button size="small" icon={<DeleteOutlined />} aria-label={t('props.remove')} onClick={() => onChange(value.filter((_, j) => j !== i))} />
            </Space.Compact>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('linkages.formula')}
            </Typography.Text>
            <FormulaEditor
              value={a.assignmentFormula ?? ''}
              onChange={(f) => set(i, { assignmentFormula: f })}
              schema={formulaSchemaFor(ctx.def, target?.view ?? null)}
              references={formulaReferencesFor(ctx.def, target?.view ?? null, ctx.language)}
              aria-label={`${t('linkages.formula')} ${i + 1}`}
              testable
            />
          </div>
        );
      })}
      <Button size="small" type="dashed" block icon={<PlusOutlined />} onClick={() => onChange([...value, { dataControlId: null, dataControlCode: null, assignmentFormula: '' }])}>
        {t('linkages.addAssignment')}
      </Button>
    </Space>
  );
}
