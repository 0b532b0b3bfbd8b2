import { Checkbox, Form, Radio, Select, Space } from 'antd';
import { PRINT_FONTS, type TTextStyle } from '@tessera/core/contracts/print-templates';
import { useTranslation } from 'react-i18next';
import '../i18n.ts';
import { ColorInput, NumberInput } from './inputs.tsx';

/** Font, size, alignments, spacing, colours and underline of a text element. */
export function TextStyleEditor({ value, onChange }: { value: TTextStyle; onChange(v: TTextStyle, mergeKey?: string): void }) {
  const { t } = useTranslation('print');
  const set = <K extends keyof TTextStyle>(key: K, v: TTextStyle[K]) => onChange({ ...value, [key]: v }, `style:${key}`);
  return (
    <>
      <div className="ps-section">{t('props.style')}</div>
      <Space align="start">
        <Form.Item label={t('props.font')}>
          <Select style={{ width: 120 }} value={value.font} onChange={(v) => set('font', v)} options={PRINT_FONTS.map((f) => ({ value: f, label: t(`props.fonts.${f}`) }))} />
        </Form.Item>
        <Form.Item label={t('props.fontSize')}>
          <NumberInput value={value.fontSize} min={4} max={96} step={0.5} label={t('props.fontSize')} onChange={(v) => set('fontSize', v)} />
        </Form.Item>
      </Space>
      <Form.Item label={t('props.alignment')}>
        <Radio.Group optionType="button" value={value.alignment} onChange={(e) => set('alignment', e.target.value as TTextStyle['alignment'])} options={(['left', 'center', 'right'] as const).map((a) => ({ value: a, label: t(`props.alignments.${a}`) }))} />
      </Form.Item>
      <Form.Item label={t('props.verticalAlignment')}>
        <Radio.Group
          optionType="button"
          value={value.verticalAlignment}
          onChange={(e) => set('verticalAlignment', e.target.value as TTextStyle['verticalAlignment'])}
          options={(['top', 'middle', 'bottom'] as const).map((a) => ({ value: a, label: t(`props.verticalAlignments.${a}`) }))}
        />
      </Form.Item>
      <Space align="start">
        <Form.Item label={t('props.lineHeight')}>
          <NumberInput value={value.lineHeight} min={0.5} max={5} step={0.1} label={t('props.lineHeight')} onChange={(v) => set('lineHeight', v)} />
        </Form.Item>
        <Form.Item label={t('props.characterSpacing')}>
          <NumberInput value={value.characterSpacing} min={0} max={20} step={0.5} label={t('props.characterSpacing')} onChange={(v) => set('characterSpacing', v)} />
        </Form.Item>
      </Space>
      <Space align="start" wrap>
        <Form.Item label={t('props.color')}>
          <ColorInput value={value.color} label={t('props.color')} onChange={(v) => set('color', v)} />
        </Form.Item>
        <Form.Item label={t('props.backgroundColor')}>
          <ColorInput value={value.backgroundColor} label={t('props.backgroundColor')} onChange={(v) => set('backgroundColor', v)} />
        </Form.Item>
      </Space>
      <Checkbox checked={value.underline} onChange={(e) => set('underline', e.target.checked)}>
        {t('props.underline')}
      </Checkbox>
    </>
  );
}
