import { CloseOutlined } from '@ant-design/icons';
import { Button, Input, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { registerTexts, SUPPORTED_LOCALES } from '../i18n/i18n.ts';

registerTexts('localizedTextInput', {
  'zh-CN': { language: '语言', add: '添加语言', remove: '移除 {{culture}}' },
  'en-US': { language: 'Language', add: 'Add a language', remove: 'Remove {{culture}}' },
});

/** Cultures always offered first; more can be added from the supported list (or any admin language pack). */
const BASE_CULTURES = ['zh-CN', 'en-US'];

export interface LocalizedTextInputProps {
  value?: Record<string, string>;
  onChange?: (value: Record<string, string>) => void;
  maxLength?: number;
  placeholder?: string;
  /** Extra cultures to offer in "add language" (e.g. admin language packs). */
  cultures?: string[];
  id?: string;
  disabled?: boolean;
}

/** A multilingual text (`{ "zh-CN": "采购", "en-US": "Purchasing" }`) as one input per language. */
export function LocalizedTextInput({ value, onChange, maxLength = 200, placeholder, cultures = [], id, disabled }: LocalizedTextInputProps) {
  const { t } = useTranslation('localizedTextInput');
  const current = value ?? {};
  const shown = [...new Set([...BASE_CULTURES, ...Object.keys(current)])];
  const addable = [...new Set([...SUPPORTED_LOCALES, ...cultures])].filter((c) => !shown.includes(c));
  const set = (culture: string, text: string) => onChange?.({ ...current, [culture]: text });
  const remove = (culture: string) => {
    const { [culture]: _removed, ...rest } = current;
    onChange?.(rest);
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={6}>
      {shown.map((culture, i) => (
        <Space.Compact key={culture} style={{ width: '100%' }}>
          <Input
            id={i === 0 ? id : undefined}
            addonBefore={<span style={{ display: 'inline-block', minWidth: 52 }}>{culture}</span>}
            value={current[culture] ?? ''}
            maxLength={maxLength}
            placeholder={placeholder}
            disabled={disabled}
            aria-label={`${t('language')} ${culture}`}
            onChange={(e) => set(culture, e.target.value)}
          />
          {!BASE_CULTURES.includes(culture) && (
            <Button icon={<CloseOutlined />} aria-label={t('remove', { culture })} onClick={() => remove(culture)} disabled={disabled} />
          )}
        </Space.Compact>
      ))}
      {addable.length > 0 && !disabled && (
        <Select
          size="small"
          style={{ width: 180 }}
          placeholder={t('add')}
          value={null}
          options={addable.map((c) => ({ value: c, label: c }))}
          onChange={(culture: string) => set(culture, '')}
        />
      )}
    </Space>
  );
}

/** The text for the UI language, then zh-CN, en-US, any. */
export function pickText(text: Record<string, string> | null | undefined, language: string): string {
  if (!text) return '';
  return text[language] || text[language.split('-')[0] ?? ''] || text['zh-CN'] || text['en-US'] || Object.values(text).find(Boolean) || '';
}

/** Form rule: at least one language filled in. */
export const requireSomeText = (message: string) => ({
  validator: (_: unknown, value: Record<string, string> | undefined) =>
    value && Object.values(value).some((v) => v.trim()) ? Promise.resolve() : Promise.reject(new Error(message)),
});
