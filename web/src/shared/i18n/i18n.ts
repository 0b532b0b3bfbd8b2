import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { commonTexts } from './common-texts.ts';
import { appStorage } from '../storage.ts';

/** spec §9: default zh-CN; en-US complete; zh-Hant converted from zh-CN; km, my, vi and th from the server's language dictionary, falling back to en-US. */
export const DEFAULT_LOCALE = 'zh-CN';
export const LOCALE_STORAGE_KEY = 'i18n-locale';
export const SUPPORTED_LOCALES = ['zh-CN', 'zh-Hant', 'en-US', 'km', 'my', 'vi', 'th'] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];

/** Each language named in its own script, for the language selector. */
export const LOCALE_LABELS: Record<Locale, string> = {
  'zh-CN': '简体中文',
  'zh-Hant': '繁體中文',
  'en-US': 'English',
  km: 'ខ្មែរ',
  my: 'မြန်မာ',
  vi: 'Tiếng Việt',
  th: 'ไทย',
};

/**
 * Page-level settings (like the API host): `auto` picks the browser language on a first visit when
 * it is offered; `reloadOnChange` reloads the page after the language changes.
 */
export const I18N_SETTINGS: { auto: boolean; reloadOnChange: boolean } = {
  auto: true,
  reloadOnChange: false,
  ...(window as { __TESSERA_I18N__?: Partial<{ auto: boolean; reloadOnChange: boolean }> }).__TESSERA_I18N__,
};

export const isLocale = (value: string | null | undefined): value is Locale =>
  Boolean(value) && (SUPPORTED_LOCALES as readonly string[]).includes(value!);

/** The offered locale for a browser language tag (`zh-TW` → zh-Hant, `en-GB` → en-US, `th-TH` → th). */
export function matchBrowserLanguage(tag: string): Locale | null {
  const lower = tag.toLowerCase();
  if (lower === 'zh-cn' || lower === 'zh-sg' || lower === 'zh-hans' || lower.startsWith('zh-hans-') || lower === 'zh') return 'zh-CN';
  if (lower.startsWith('zh-')) return 'zh-Hant';
  const base = lower.split('-')[0];
  if (base === 'en') return 'en-US';
  return isLocale(base) ? base : null;
}

/** spec §4: the stored locale; else the browser language when offered and auto is on; else zh-CN. */
export function initialLocale(): Locale {
  const stored = appStorage.getItem(LOCALE_STORAGE_KEY);
  if (isLocale(stored)) return stored;
  if (I18N_SETTINGS.auto) {
    for (const tag of navigator.languages ?? [navigator.language]) {
      const match = tag ? matchBrowserLanguage(tag) : null;
      if (match) return match;
    }
  }
  return DEFAULT_LOCALE;
}

const startLocale = initialLocale();
document.documentElement.lang = startLocale;

void i18n.use(initReactI18next).init({
  lng: startLocale,
  fallbackLng: { 'zh-Hant': ['zh-CN', 'en-US'], default: ['en-US'] },
  supportedLngs: [...SUPPORTED_LOCALES],
  defaultNS: 'common',
  ns: ['common'],
  interpolation: { escapeValue: false },
  resources: {},
  returnNull: false,
});

/**
 * Each module keeps its texts beside its code and registers them under its own namespace
 * (`registerTexts('identity', { 'zh-CN': {...}, 'en-US': {...} })`), so modules never edit one
 * shared file.
 */
export function registerTexts(namespace: string, texts: Partial<Record<Locale, Record<string, unknown>>>) {
  for (const [locale, resources] of Object.entries(texts)) {
    i18n.addResourceBundle(locale, namespace, resources, true, false);
  }
  if (toTraditional && texts['zh-CN']) addTraditional(namespace, texts['zh-CN']);
}

/*
 * Traditional Chinese: built-in texts are written once, in Simplified Chinese, and converted with
 * OpenCC (Simplified → Traditional with Taiwan vocabulary — 登入, 資料, 預設 — as the hand-written built-in zh-Hant texts use) when zh-Hant is in use. The converter is a lazy
 * chunk loaded only then. Texts a module or an administrator provides in zh-Hant are kept: the
 * converted bundle never overwrites an existing key.
 */
let toTraditional: ((text: string) => string) | null = null;

function convertTree(tree: unknown, convert: (text: string) => string): unknown {
  if (typeof tree === 'string') return convert(tree);
  if (Array.isArray(tree)) return tree.map((v) => convertTree(v, convert));
  if (tree && typeof tree === 'object') return Object.fromEntries(Object.entries(tree).map(([k, v]) => [k, convertTree(v, convert)]));
  return tree;
}

function addTraditional(namespace: string, simplified: Record<string, unknown>) {
  i18n.addResourceBundle('zh-Hant', namespace, convertTree(simplified, toTraditional!) as Record<string, unknown>, true, false);
}

/** Loads the converter (once) and gives every registered namespace its zh-Hant texts. */
async function prepareTraditional() {
  if (toTraditional) return;
  const { Converter } = await import('opencc-js/cn2t');
  toTraditional = Converter({ from: 'cn', to: 'twp' });
  for (const [namespace, resources] of Object.entries(i18n.store.data['zh-CN'] ?? {})) addTraditional(namespace, resources as Record<string, unknown>);
}

registerTexts('common', commonTexts);
if (startLocale === 'zh-Hant') void prepareTraditional().then(() => i18n.changeLanguage('zh-Hant'), () => undefined);

/** Switches the language, remembers it, and reloads the page when the page-level setting asks for it. */
export async function changeLocale(locale: Locale) {
  appStorage.setItem(LOCALE_STORAGE_KEY, locale);
  document.documentElement.lang = locale;
  if (locale === 'zh-Hant') await prepareTraditional().catch(() => undefined);
  await i18n.changeLanguage(locale);
  if (I18N_SETTINGS.reloadOnChange) window.location.reload();
}

/** The offered locale in use; a language pack an administrator added counts as en-US (its fallback) for antd, dayjs and the selector. */
export const currentLocale = (): Locale => (isLocale(i18n.language) ? i18n.language : i18n.language && i18n.language !== 'cimode' ? 'en-US' : DEFAULT_LOCALE);

/** A multilingual text (`{ "zh-CN": "采购", "en-US": "Purchasing" }`) in the current language, with fallbacks. */
export function localized(text: Record<string, string> | string | null | undefined, locale: string = i18n.language): string {
  if (!text) return '';
  if (typeof text === 'string') return text;
  const fallbacks = locale === 'zh-Hant' ? ['zh-Hant', 'zh-CN', 'en-US'] : [locale, 'en-US', 'zh-CN'];
  for (const key of fallbacks) if (text[key]) return text[key];
  return Object.values(text).find(Boolean) ?? '';
}

export default i18n;
