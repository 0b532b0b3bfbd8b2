import { Card, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HelpLink } from '../../../shared/components/HelpLink.tsx';
import { PacksTable } from '../components/PacksTable.tsx';
import { TranslationGrid } from '../components/TranslationGrid.tsx';
import '../i18n.ts';

/** /system/localization: language packs and the translation grid (`?tab=translations&culture=fr-FR`). */
export default function LocalizationPage() {
  const { t } = useTranslation('localization');
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'translations' ? 'translations' : 'packs';
  const culture = params.get('culture') || 'en-US';
  const go = (next: { tab?: string; culture?: string }) =>
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      for (const [k, v] of Object.entries(next)) if (v) p.set(k, v);
      return p;
    });
  return (
    <Card title={t('title')} extra={<HelpLink docKey="localization" />}>
      <Tabs
        activeKey={tab}
        onChange={(key) => go({ tab: key })}
        destroyOnHidden
        items={[
          { key: 'packs', label: t('tabs.packs'), children: <PacksTable onTranslate={(c) => go({ tab: 'translations', culture: c })} /> },
          { key: 'translations', label: t('tabs.translations'), children: <TranslationGrid target={culture} onTargetChange={(c) => go({ culture: c })} /> },
        ]}
      />
    </Card>
  );
}
