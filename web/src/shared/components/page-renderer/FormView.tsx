import { CalculatorOutlined } from '@ant-design/icons';
import { Col, Empty, Form, Row, Tooltip } from 'antd';
import { getControlType } from '@tessera/core/controls/registry';
import type { TBusinessRecord, TDataControl, TView } from '@tessera/core/page-definition';
import i18next, { type TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ControlField } from './ControlField.tsx';
import { localizedTitle, ruleProblemText, type RuleProblem } from './control-rules.ts';
import { useRenderer, type RendererContextValue } from './renderer-context.ts';
import './renderer-texts.ts';

/** Grid span of a control (extraProperties.span: 24 columns per row; default three per row, a text of several lines the whole row). */
export function controlSpan(control: TDataControl): number {
  const span = Number((control.extraProperties as { span?: unknown } | null)?.span);
  return Number.isInteger(span) && span >= 4 && span <= 24 ? span : getControlType(control.controlType).multiline ? 24 : 8;
}

/** A problem at a field in the interface language (the core's English value messages translated). */
export const problemText = (t: TFunction, problem: RuleProblem, title: string): string => ruleProblemText(t, problem, title, i18next.language);

/** A control's input props bound to a record of the renderer: its value, and changes written back. */
export function boundField(ctx: RendererContextValue, view: TView, record: TBusinessRecord, control: TDataControl) {
  return {
    control,
    view,
    record,
    value: record[control.code],
    onChange: (value: unknown, extra?: Record<string, unknown>) => ctx.setField(view, record.Id, control, value, extra),
    mode: ctx.mode,
    services: ctx.services,
  };
}

/** Is the control shown / editable, by its design flags and the live page state. */
export function useControlFlags() {
  const { pageState, readOnly, computed } = useRenderer();
  return (control: TDataControl, view: TView) => ({
    visible: control.isDisplayed !== false && !pageState.hidden.has(control.id),
    editable: !readOnly && control.isEdit !== false && !computed.has(control.id) && !pageState.readOnly.has(control.id) && !pageState.readOnly.has(view.id),
    computed: computed.has(control.id),
  });
}

/** A control's title, with a calculator mark when a formula computes its value. */
export function ControlTitle({ title, computed }: { title: string; computed: boolean }) {
  const { t } = useTranslation('pageRenderer');
  if (!computed) return <>{title}</>;
  return (
    <span>
      {title}{' '}
      <Tooltip title={t('computed')}>
        <CalculatorOutlined aria-label={t('computed')} data-computed="1" style={{ color: 'var(--ant-color-text-tertiary)' }} />
      </Tooltip>
    </span>
  );
}

/** A master form view: one record, its controls in a responsive grid with messages at the fields. */
export function FormView({ view, record }: { view: TView; record: TBusinessRecord | undefined }) {
  const { t, i18n } = useTranslation('pageRenderer');
  const ctx = useRenderer();
  const flags = useControlFlags();
  const controls = view.dataControls.filter((c) => flags(c, view).visible);
  if (!record) return null;
  if (!controls.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('emptyForm')} />;
  return (
    <Form layout="vertical" component="div" colon={false}>
      <Row gutter={16}>
        {controls.map((control) => {
          const title = localizedTitle(control, i18n.language);
          const problem = ctx.problemOf(view, record, control);
          const { editable, computed } = flags(control, view);
          const fieldId = `f-${view.code}-${control.code}`;
          return (
            <Col key={control.id} xs={24} sm={Math.max(controlSpan(control), 12)} md={controlSpan(control)}>
              <Form.Item
                label={<ControlTitle title={title} computed={computed} />}
                htmlFor={fieldId}
                required={(control.extraProperties as { required?: unknown } | null)?.required === true}
                validateStatus={problem ? 'error' : undefined}
                help={problem ? problemText(t, problem, title) : undefined}
                data-control-code={control.code}
              >
                <ControlField id={fieldId} {...boundField(ctx, view, record, control)} disabled={!editable} status={problem ? 'error' : undefined} />
              </Form.Item>
            </Col>
          );
        })}
      </Row>
    </Form>
  );
}
