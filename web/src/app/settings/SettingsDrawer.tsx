import { Button, ColorPicker, Divider, Drawer, Radio, Space, Switch, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLayout } from '../layout/layout-store.ts';
import { DEFAULT_SETTINGS, SETTING_PARENTS, useSettings, type LayoutSettings } from './settings-store.ts';

/** spec §9: the settings drawer is 280px wide. */
export const SETTINGS_DRAWER_WIDTH = 280;
const PRESET_COLORS = ['#51d6a9', '#1677ff', '#722ed1', '#eb2f96', '#fa541c', '#faad14', '#13c2c2', '#52c41a'];

type BooleanKey = { [K in keyof LayoutSettings]: LayoutSettings[K] extends boolean ? K : never }[keyof LayoutSettings];

function Row({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  return (
    <div className="settings-row">
      <span>
        {label}
        {hint ? (
          <Typography.Text type="secondary" className="settings-hint">
            {hint}
          </Typography.Text>
        ) : null}
      </span>
      {children}
    </div>
  );
}

/** spec §2/§5: every layout switch, dependent switches disabled unless their parent is on; persisted, applied at once. */
export function SettingsDrawer() {
  const { t } = useTranslation('shell');
  const open = useLayout((s) => s.settingsOpen);
  const setOpen = useLayout((s) => s.setSettingsOpen);
  const settings = useSettings((s) => s.settings);
  const set = useSettings((s) => s.set);
  const reset = useSettings((s) => s.reset);

  const toggle = (key: BooleanKey) => {
    const parent = SETTING_PARENTS[key];
    const parentOff = parent ? !settings[parent] : false;
    const breadcrumbBlocked = key === 'showBreadcrumb' && settings.headerMenu;
    const hint = parentOff ? t('settings.needs', { parent: t(`settings.${parent}`) }) : breadcrumbBlocked ? t('settings.breadcrumbHeaderMenu') : undefined;
    return (
      <Row label={t(`settings.${key}`)} hint={hint}>
        <Switch
          size="small"
          checked={settings[key]}
          disabled={parentOff}
          onChange={(value) => set(key, value)}
          aria-label={t(`settings.${key}`)}
          data-testid={`setting-${key}`}
        />
      </Row>
    );
  };

  return (
    <Drawer
      title={t('settings.title')}
      open={open}
      onClose={() => setOpen(false)}
      size={SETTINGS_DRAWER_WIDTH}
      placement="right"
      rootClassName="settings-drawer"
      footer={
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('settings.hint')}
          </Typography.Text>
          <Button block onClick={reset} disabled={JSON.stringify(settings) === JSON.stringify(DEFAULT_SETTINGS)}>
            {t('settings.reset')}
          </Button>
        </Space>
      }
    >
      <Divider plain titlePlacement="start" style={{ marginTop: 0 }}>
        {t('settings.theme')}
      </Divider>
      {toggle('darkTheme')}
      <Row label={t('settings.primaryColor')}>
        <ColorPicker
          size="small"
          value={settings.primaryColor}
          disabledAlpha
          presets={[{ label: t('settings.primaryColor'), colors: PRESET_COLORS }]}
          onChangeComplete={(color) => set('primaryColor', color.toHexString())}
          aria-label={t('settings.primaryColor')}
        />
      </Row>
      <div className="settings-block">
        <Typography.Text>{t('settings.siderTheme')}</Typography.Text>
        <Radio.Group
          size="small"
          optionType="button"
          value={settings.siderTheme}
          onChange={(e) => set('siderTheme', e.target.value)}
          options={[
            { value: 'dark', label: t('settings.dark') },
            { value: 'light', label: t('settings.light') },
          ]}
          aria-label={t('settings.siderTheme')}
        />
      </div>
      <div className="settings-block">
        <Typography.Text>{t('settings.headerTheme')}</Typography.Text>
        <Radio.Group
          size="small"
          optionType="button"
          value={settings.headerTheme}
          onChange={(e) => set('headerTheme', e.target.value)}
          options={[
            { value: 'light', label: t('settings.light') },
            { value: 'dark', label: t('settings.dark') },
            { value: 'primary', label: t('settings.primary') },
          ]}
          aria-label={t('settings.headerTheme')}
        />
      </div>

      <Divider plain titlePlacement="start">
        {t('settings.layout')}
      </Divider>
      {toggle('headerFix')}
      {toggle('headerStick')}
      {toggle('headerHide')}
      {toggle('siderFix')}
      {toggle('headerMenu')}
      {toggle('showBreadcrumb')}
      {toggle('showBreadcrumbIcon')}
      {toggle('showReload')}
      {toggle('showI18n')}

      <Divider plain titlePlacement="start">
        {t('settings.menu')}
      </Divider>
      {toggle('menuAccordion')}
      {toggle('showSiderCollapse')}
      {toggle('showCollapseMenuTitle')}

      <Divider plain titlePlacement="start">
        {t('settings.tabsSection')}
      </Divider>
      {toggle('tabs')}
      {toggle('showTabsIcon')}
      {toggle('tabsFix')}
      {toggle('tabsReload')}
      {toggle('tabsOrder')}
      {toggle('sameRouteForceUpdate')}

      <Divider plain titlePlacement="start">
        {t('settings.other')}
      </Divider>
      {toggle('watermark')}
    </Drawer>
  );
}
