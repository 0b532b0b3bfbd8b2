import { CloseCircleFilled } from '@ant-design/icons';
import { Button, Empty, Input, Popover, Segmented, Space, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MenuIcon } from '../../../shared/components/MenuIcon.tsx';
import { ICON_NAMES } from '../../../shared/components/menu-icon/all-icons.tsx';
import '../i18n.ts';

const THEMES = ['Outlined', 'Filled', 'TwoTone'] as const;

/** Picks an @ant-design/icons icon by name: search, theme tabs, a grid of icons; the value is the name. */
export function IconPicker({ value, onChange, id }: { value?: string | null; onChange?: (name: string | null) => void; id?: string }) {
  const { t } = useTranslation('businessMenus');
  const [open, setOpen] = useState(false);
  const [theme, setTheme] = useState<(typeof THEMES)[number]>('Outlined');
  const [search, setSearch] = useState('');
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return ICON_NAMES.filter((n) => n.endsWith(theme) && (!needle || n.toLowerCase().includes(needle)));
  }, [theme, search]);

  const grid = (
    <div style={{ width: 440 }}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Input.Search allowClear autoFocus placeholder={t('icon.search')} value={search} onChange={(e) => setSearch(e.target.value)} aria-label={t('icon.search')} />
        <Segmented block value={theme} onChange={(v) => setTheme(v)} options={THEMES.map((th) => ({ value: th, label: t(`icon.themes.${th}`) }))} />
        <div role="listbox" aria-label={t('icon.title')} style={{ display: 'grid', gridTemplateColumns: 'repeat(8, 1fr)', gap: 4, maxHeight: 300, overflow: 'auto' }}>
          {shown.map((name) => (
            <Tooltip key={name} title={name} mouseEnterDelay={0.4}>
              <Button
                role="option"
                aria-selected={value === name}
                aria-label={name}
                type={value === name ? 'primary' : 'text'}
                style={{ height: 40, fontSize: 18 }}
                onClick={() => {
                  onChange?.(name);
                  setOpen(false);
                }}
                icon={<MenuIcon name={name} business />}
              />
            </Tooltip>
          ))}
        </div>
        {shown.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('icon.none')} />}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('icon.count', { count: shown.length })}
        </Typography.Text>
      </Space>
    </div>
  );

  return (
    <Space.Compact style={{ width: '100%' }}>
      <Popover open={open} onOpenChange={setOpen} trigger="click" content={grid} placement="bottomLeft" title={t('icon.title')}>
        <Button id={id} style={{ flex: 1, justifyContent: 'flex-start' }} icon={value ? <MenuIcon name={value} business /> : undefined}>
          {value || <Typography.Text type="secondary">{t('icon.pick')}</Typography.Text>}
        </Button>
      </Popover>
      {value && <Button aria-label={t('icon.clear')} icon={<CloseCircleFilled />} onClick={() => onChange?.(null)} />}
    </Space.Compact>
  );
}
