import { App, Card, Input, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../shared/clipboard.ts';
import { MenuIcon } from '../../shared/components/MenuIcon.tsx';
import { ICON_NAMES } from '../../shared/components/menu-icon/all-icons.tsx';

/** spec §2 /icon: the icon set business menus can use; clicking one copies its name. */
export default function IconsPage() {
  const { t } = useTranslation('shell');
  const { message } = App.useApp();
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = useMemo(() => ICON_NAMES.filter((n) => !needle || n.toLowerCase().includes(needle)), [needle]);
  const copy = async (name: string) => {
    if (await copyText(name)) message.success(t('icons.copied', { name }));
    else message.warning(t('common:copyFailed'));
  };
  return (
    <Card variant="borderless" title={t('icons.title')}>
      <Input.Search allowClear placeholder={t('icons.filter')} aria-label={t('icons.filter')} value={filter} onChange={(e) => setFilter(e.target.value)} style={{ maxWidth: 360 }} />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t('icons.count', { count: shown.length })}
      </Typography.Paragraph>
      <div className="icons-grid">
        {shown.map((name) => (
          <button key={name} type="button" className="icons-cell" onClick={() => void copy(name)} title={name}>
            <MenuIcon name={name} business style={{ fontSize: 22 }} />
            <span>{name}</span>
          </button>
        ))}
      </div>
    </Card>
  );
}
