import type { Locale as AntLocale } from 'antd/es/locale';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import type { Locale } from '../shared/i18n/i18n.ts';

/** spec §9 offered locales with their antd locale; only zh-CN and en-US ship in the first chunk. */
const BUILT_IN: Partial<Record<Locale, AntLocale>> = { 'zh-CN': zhCN, 'en-US': enUS };
const LOADERS: Record<Exclude<Locale, 'zh-CN' | 'en-US'>, () => Promise<{ default: AntLocale }>> = {
  'zh-Hant': () => import('antd/locale/zh_TW'),
  km: () => import('antd/locale/km_KH'),
  my: () => import('antd/locale/my_MM'),
  vi: () => import('antd/locale/vi_VN'),
  th: () => import('antd/locale/th_TH'),
};
const loaded: Partial<Record<Locale, AntLocale>> = { ...BUILT_IN };

export const antdLocaleFor = (locale: Locale): AntLocale | undefined => loaded[locale];

export async function loadAntdLocale(locale: Locale): Promise<AntLocale> {
  if (loaded[locale]) return loaded[locale]!;
  try {
    const module = await LOADERS[locale as keyof typeof LOADERS]();
    loaded[locale] = module.default;
    return module.default;
  } catch {
    return enUS;
  }
}

const DAYJS: Record<Locale, { name: string; load?: () => Promise<unknown> }> = {
  'zh-CN': { name: 'zh-cn' },
  'en-US': { name: 'en' },
  'zh-Hant': { name: 'zh-tw', load: () => import('dayjs/locale/zh-tw') },
  km: { name: 'km', load: () => import('dayjs/locale/km') },
  my: { name: 'my', load: () => import('dayjs/locale/my') },
  vi: { name: 'vi', load: () => import('dayjs/locale/vi') },
  th: { name: 'th', load: () => import('dayjs/locale/th') },
};

export async function applyDayjsLocale(locale: Locale) {
  const entry = DAYJS[locale];
  try {
    await entry.load?.();
    dayjs.locale(entry.name);
  } catch {
    dayjs.locale('en');
  }
}
