import { BugOutlined, FullscreenExitOutlined, FullscreenOutlined, TranslationOutlined } from '@ant-design/icons';
import { App, Badge, Button, Dropdown, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { changeLocale, currentLocale, LOCALE_LABELS, SUPPORTED_LOCALES, type Locale } from '../../shared/i18n/i18n.ts';
import { useLogs } from '../../shared/logs/log-store.ts';
import { switchLanguage, useAddedLanguagePacks } from '../../modules/localization/sync.ts';

/** spec §9: the log badge overflows at 99. */
export const LOG_BADGE_OVERFLOW = 99;

/** spec §8: tooltip "N logs including M exceptions", or "no logs or exceptions"; opens /log. */
export function LogIndicator({ color }: { color?: string }) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const entries = useLogs((s) => s.entries);
  const errors = entries.filter((e) => e.type === 'error').length;
  const tip = entries.length ? t('header.logsTooltip', { count: entries.length, errors }) : t('header.logsNone');
  return (
    <Tooltip title={tip}>
      <Button type="text" aria-label={t('header.logs')} data-testid="log-indicator" onClick={() => navigate('/log')} style={{ color }}>
        <Badge count={errors} overflowCount={LOG_BADGE_OVERFLOW} size="small" offset={[4, -2]}>
          <BugOutlined style={{ color, fontSize: 16 }} />
        </Badge>
      </Button>
    </Tooltip>
  );
}

/** Full screen toggle; spec §8: a warning when the browser cannot. */
export function FullscreenButton({ color }: { color?: string }) {
  const { t } = useTranslation('shell');
  const { message } = App.useApp();
  const [full, setFull] = useState(Boolean(document.fullscreenElement));
  useEffect(() => {
    const onChange = () => setFull(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = async () => {
    if (!document.fullscreenEnabled || !document.documentElement.requestFullscreen) {
      message.warning(t('header.fullscreenUnsupported'));
      return;
    }
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await document.documentElement.requestFullscreen();
    } catch {
      message.warning(t('header.fullscreenUnsupported'));
    }
  };
  const label = full ? t('header.exitFullscreen') : t('header.fullscreen');
  return (
    <Tooltip title={label}>
      <Button type="text" aria-label={label} data-testid="fullscreen" onClick={toggle} icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />} style={{ color }} />
    </Tooltip>
  );
}

export function LanguageSelector({ color }: { color?: string }) {
  const { t, i18n } = useTranslation('shell');
  const locale = currentLocale();
  // Language packs administrators added (language management) are offered after the bundle's locales.
  const { packs: added, refresh: refreshPacks } = useAddedLanguagePacks();
  const addedInUse = added.find((p) => p.culture === i18n.language);
  return (
    <Dropdown
      trigger={['click']}
      onOpenChange={(open) => open && refreshPacks()}
      menu={{
        selectable: true,
        selectedKeys: [addedInUse ? addedInUse.culture : locale],
        items: [
          ...SUPPORTED_LOCALES.map((l) => ({ key: l, label: <span lang={l}>{LOCALE_LABELS[l]}</span> })),
          ...added.map((p) => ({ key: p.culture, label: <span lang={p.culture}>{p.title}</span> })),
        ],
        onClick: ({ key }) => void ((SUPPORTED_LOCALES as readonly string[]).includes(key) ? changeLocale(key as Locale) : switchLanguage(key)),
      }}
    >
      <Button type="text" aria-label={t('header.language')} data-testid="language-selector" icon={<TranslationOutlined />} style={{ color }}>
        <span className="hide-on-mobile" lang={i18n.language}>
          {addedInUse ? addedInUse.title : LOCALE_LABELS[locale]}
        </span>
      </Button>
    </Dropdown>
  );
}
