import { Form, Radio, Select, Space } from 'antd';
import { PAPER_PRESET_NAMES, PRINT_LIMITS, type TPaper } from '@tessera/core/contracts/print-templates';
import { useTranslation } from 'react-i18next';
import '../i18n.ts';
import { NumberInput } from './inputs.tsx';
import { withPreset } from './layout-ops.ts';

const MARGINS = ['marginTop', 'marginRight', 'marginBottom', 'marginLeft'] as const;

/** The right panel with nothing selected: paper size (preset or custom), orientation, margins. */
export function PaperProperties({ paper, onChange }: { paper: TPaper; onChange(paper: TPaper, mergeKey?: string): void }) {
  const { t } = useTranslation('print');
  return (
    <Form layout="vertical" size="small" data-testid="print-paper-properties">
      <div className="ps-section">{t('props.paper')}</div>
      <Form.Item label={t('props.preset')}>
        <Select value={paper.preset} onChange={(preset) => onChange(withPreset(paper, preset))} options={PAPER_PRESET_NAMES.map((p) => ({ value: p, label: t(`papers.${p}`) }))} data-testid="print-paper-preset" />
      </Form.Item>
      <Space>
        <Form.Item label={t('props.width')}>
          <NumberInput value={paper.width} min={10} max={PRINT_LIMITS.paperSide} label={t('props.width')} onChange={(width) => onChange({ ...paper, preset: 'custom', width }, 'paper:width')} />
        </Form.Item>
        <Form.Item label={t('props.height')}>
          <NumberInput value={paper.height} min={10} max={PRINT_LIMITS.paperSide} label={t('props.height')} onChange={(height) => onChange({ ...paper, preset: 'custom', height }, 'paper:height')} />
        </Form.Item>
      </Space>
      <Form.Item label={t('props.orientation')}>
        <Radio.Group
          value={paper.orientation}
          onChange={(e) => onChange({ ...paper, orientation: e.target.value as TPaper['orientation'] })}
          options={(['portrait', 'landscape'] as const).map((o) => ({ value: o, label: t(`list.orientation.${o}`) }))}
          optionType="button"
        />
      </Form.Item>
      <Form.Item label={t('props.margins')}>
        <Space wrap>
          {MARGINS.map((key, i) => (
            <Space key={key} size={4}>
              <span>{t(`props.${key}`)}</span>
              <NumberInput
                value={paper.margins[i]!}
                min={0}
                max={200}
                width={70}
                label={t(`props.${key}`)}
                onChange={(v) => {
                  const margins = [...paper.margins] as TPaper['margins'];
                  margins[i] = v;
                  onChange({ ...paper, margins }, `paper:${key}`);
                }}
              />
            </Space>
          ))}
        </Space>
      </Form.Item>
    </Form>
  );
}
