import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider, theme as antTheme } from 'antd';
import type { Locale as AntLocale } from 'antd/es/locale';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { MessageBridge } from '../shared/ui/message-bridge.tsx';
import { currentLocale } from '../shared/i18n/i18n.ts';
import { loadServerDictionary } from '../shared/i18n/server-dictionary.ts';
import { antdLocaleFor, applyDayjsLocale, loadAntdLocale } from './locales.ts';
import { queryClient } from './query-client.ts';
import { router } from './router.tsx';
import { useSettings } from './settings/settings-store.ts';
import './shell-texts.ts';

/** The antd locale for the current language (zh-CN and en-US are built in; the others load on demand). */
function useAntdLocale(): AntLocale {
  const { i18n } = useTranslation();
  const [locale, setLocale] = useState<AntLocale>(() => antdLocaleFor(currentLocale()) ?? antdLocaleFor('en-US')!);
  useEffect(() => {
    const lng = currentLocale();
    let live = true;
    void loadAntdLocale(lng).then((loaded) => live && setLocale(loaded));
    void applyDayjsLocale(lng);
    void loadServerDictionary(lng);
    return () => {
      live = false;
    };
  }, [i18n.language]);
  return locale;
}

export function App() {
  const locale = useAntdLocale();
  const darkTheme = useSettings((s) => s.settings.darkTheme);
  const primaryColor = useSettings((s) => s.settings.primaryColor);
  useEffect(() => {
    document.documentElement.style.setProperty('--tessera-primary', primaryColor);
    document.documentElement.dataset.theme = darkTheme ? 'dark' : 'light';
    document.documentElement.style.colorScheme = darkTheme ? 'dark' : 'light';
  }, [darkTheme, primaryColor]);
  return (
    <ConfigProvider
      locale={locale}
      theme={{ algorithm: darkTheme ? antTheme.darkAlgorithm : antTheme.defaultAlgorithm, token: { colorPrimary: primaryColor } }}
    >
      {/* The full antd App (modal, notification) comes with the lazily loaded frames (router.tsx). */}
      <MessageBridge />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ConfigProvider>
  );
}
