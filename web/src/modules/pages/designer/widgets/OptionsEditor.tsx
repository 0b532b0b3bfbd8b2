import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Input, Segmented, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDictionaries } from '../../api/designer-lookups.ts';
import { pickText } from '../../../../shared/components/LocalizedTextInput.tsx';
import type { WidgetProps } from './widget-types.ts';

type Option = { label: string; value: string };
type OptionsValue = Option[] | { dictionaryCode: string } | null | undefined;

const isDictionary = (v: OptionsValue): v is { dictionaryCode: string } => Boolean(v && !Array.isArray(v) && typeof v === 'object' && 'dictionaryCode' in v);

/** spec §3 options: a fixed list of value/label pairs, or a business dictionary by code. */
export function OptionsEditor({ value, onChange, id }: WidgetProps<OptionsValue>) {
  const { t, i18n } = useTranslation('pageDesigner');
  const dictionaries = useDictionaries();
  const mode = isDictionary(value) ? 'dictionary' : 'list';
  const list: Option[] = Array.isArray(value) ? value : [];
  const setRow = (i: number, patch: Partial<Option>) => onChange(list.map((o, j) => (j === i ? { ...o, ...patch } : o)));
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={6}>
      <Segmented
        size="small"
        value={mode}
        onChange={(m) => onChange(m === 'dictionary' ? { dictionaryCode: '' } : [])}
        options={[
          { value: 'list', label: t('props.optionsList') },
          { value: 'dictionary', label: t('props.optionsDictionary') },
        ]}
      />
      {mode === 'dictionary' ? (
        <Select
          id={id}
          showSearch={{ optionFilterProp: 'label' }}
          loading={dictionaries.isLoading}
          placeholder={t('props.pickDictionary')}
          value={isDictionary(value) && value.dictionaryCode ? value.dictionaryCode : undefined}
          onChange={(code: string) => onChange({ dictionaryCode: code })}
          options={(dictionaries.data?.items ?? []).map((d) => ({ value: d.code, label: `${pickText(d.title, i18n.language)} (${d.code})` }))}
          style={{ width: '100%' }}
        />
      ) : (
        <>
          {list.map((o, i) => (
            <Space.Compact key={i} style={{ width: '100%' }}>
              <Input size="small" placeholder={t('props.optionValue')} value={o.value} onChange={(e) => setRow(i, { value: e.target.value })} aria-label={`${t('props.optionValue')} ${i + 1}`} />
              <Input size="small" placeholder={t('props.optionLabel')} value={o.label} onChange={(e) => setRow(i, { label: e.target.value })} aria-label={`${t('props.optionLabel')} ${i + 1}`} />
              <Button size="small" icon={<DeleteOutlined />} aria-label={t('props.remove')} onClick={() => onChange(list.filter((_, j) => j !== i))} />
            </Space.Compact>
          ))}
          <Button size="small" type="dashed" block icon={<PlusOutlined />} onClick={() => onChange([...list, { value: `${list.length + 1}`, label: '' }])}>
            {t('props.addOption')}
          </Button>
        </>
      )}
    </Space>
  );
}
