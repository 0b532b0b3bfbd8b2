import { useEffect } from 'react';
import { CULTURE_PATTERN, type TLanguageDictionary, type TNestedTexts } from '@tessera/core/contracts/localization';
import { api } from '../../shared/api/client.ts';
import i18n, { LOCALE_STORAGE_KEY, SUPPORTED_LOCALES } from '../../shared/i18n/i18n.ts';
import { fetchDictionary, fetchPublicPacks, usePublicPacks } from './api/localization.ts';
import { appStorage } from '../../shared/storage.ts';

/** How often a signed-in browser asks whether administrators changed any text. */
export const VERSION_POLL_MS = 60_000;
/** Window focus checks at most this often. */
const FOCUS_CHECK_MS = 5_000;

let knownVersion: number | null = null;
let lastCheck = 0;
let checking: Promise<boolean> | null = null;
/** Per culture: the `namespace\0key` texts the last dictionary set. */
const applied = new Map<string, Set<string>>();
/** `culture\0namespace\0key` → the bundle's text before the server first replaced it in this session. */
const originals = new Map<string, unknown>();

function flatten(texts: TNestedTexts, prefix = ''): [string, string][] {
  return Object.entries(texts).flatMap(([k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    return typeof v === 'string' ? [[key, v] as [string, string]] : v && typeof v === 'object' ? flatten(v, key) : [];
  });
}

/**
 * Lays a server dictionary over i18next's resources of one culture. A text the server no longer
 * has (an administrator deleted the override) gets back the bundle's text when this session saw it.
 */
export function applyDictionary(culture: string, dictionary: TLanguageDictionary) {
  const before = applied.get(culture) ?? new Set<string>();
  const now = new Set<string>();
  for (const [ns, nested] of Object.entries(dictionary)) {
    if (!nested || typeof nested !== 'object') continue;
    for (const [key] of flatten(nested)) {
      const id = `${ns}\u0000${key}`;
      now.add(id);
      if (!before.has(id) && !originals.has(`${culture}\u0000${id}`)) originals.set(`${culture}\u0000${id}`, i18n.getResource(culture, ns, key));
    }
    i18n.addResourceBundle(culture, ns, nested, true, true);
  }
  for (const id of before) {
    if (now.has(id)) continue;
    const original = originals.get(`${culture}\u0000${id}`);
    const [ns, key] = id.split('\u0000') as [string, string];
    if (typeof original === 'string') i18n.addResource(culture, ns, key, original);
  }
  applied.set(culture, now);
}

/** The cultures whose texts are on screen: the current language and its fallbacks. */
const visibleCultures = () => [...new Set([i18n.language, ...(i18n.languages ?? [])])].filter((c) => c && CULTURE_PATTERN.test(c));

async function refreshDictionaries() {
  let changed = false;
  for (const culture of visibleCultures()) {
    const dictionary = await fetchDictionary(culture).catch(() => null);
    if (!dictionary) continue;
    applyDictionary(culture, dictionary);
    changed = true;
  }
  // Re-render whatever is on screen with the new texts.
  if (changed) await i18n.changeLanguage(i18n.language);
}

/** Asks for the version; when it moved, fetches the dictionaries again. Answers whether texts changed. */
export function checkForTextChanges(): Promise<boolean> {
  checking ??= (async () => {
    try {
      lastCheck = Date.now();
      const { version } = await api.get<{ version: number }>('/app/localization/version', undefined, { silent: true });
      const moved = knownVersion !== null && version !== knownVersion;
      knownVersion = version;
      if (moved) await refreshDictionaries();
      return moved;
    } catch {
      return false;
    } finally {
      checking = null;
    }
  })();
  return checking;
}

/**
 * Lets i18next use a culture that is not one of the bundle's offered locales (a pack an
 * administrator added): it becomes supported, falling back to en-US for untranslated texts.
 */
export function allowCulture(culture: string) {
  const supported = i18n.options.supportedLngs;
  if (Array.isArray(supported) && !supported.includes(culture)) {
    // The same array backs i18next's language utilities.
    supported.push(culture);
    (i18n.services.languageUtils as { clearCache?: () => void }).clearCache?.();
  }
}

/** Switches the interface to a language pack (built-in or added by an administrator) and remembers it. */
export async function switchLanguage(culture: string) {
  allowCulture(culture);
  applyDictionary(culture, await fetchDictionary(culture));
  appStorage.setItem(LOCALE_STORAGE_KEY, culture);
  document.documentElement.lang = culture;
  await i18n.changeLanguage(culture);
}

/** A stored language that the bundle does not offer: use it when it is an enabled pack. */
async function restoreAddedLanguage() {
  const stored = appStorage.getItem(LOCALE_STORAGE_KEY);
  if (!stored || stored === i18n.language || !CULTURE_PATTERN.test(stored) || (SUPPORTED_LOCALES as readonly string[]).includes(stored)) return;
  const packs = await fetchPublicPacks().catch(() => null);
  if (packs?.items.some((p) => p.culture === stored)) await switchLanguage(stored);
}

/**
 * Keeps the texts of a running app current: polls the localization version every minute and when
 * the window regains focus, and merges the changed dictionaries into i18next (no rebuild, no reload).
 */
export function useLanguageDictionarySync() {
  useEffect(() => {
    void restoreAddedLanguage();
    void checkForTextChanges();
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void checkForTextChanges();
    }, VERSION_POLL_MS);
    const onFocus = () => {
      if (document.visibilityState === 'visible' && Date.now() - lastCheck > FOCUS_CHECK_MS) void checkForTextChanges();
    };
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onFocus);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onFocus);
    };
  }, []);
}

/**
 * The enabled language packs the web bundle does not offer (added by administrators), for the
 * language selector; `refresh` asks again (when the selector opens: a pack may be new).
 */
export function useAddedLanguagePacks() {
  const packs = usePublicPacks();
  return {
    packs: (packs.data?.items ?? []).filter((p) => !(SUPPORTED_LOCALES as readonly string[]).includes(p.culture)),
    refresh: () => void packs.refetch(),
  };
}
