import { api } from '../api/client.ts';
import i18n, { type Locale } from './i18n.ts';

type Nested = { [key: string]: string | Nested };

const loaded = new Set<string>();

/**
 * Merges the texts administrators maintain on the server (language management) over the built-in
 * ones: `GET /api/app/localization/language-dictionary?culture=…` answers i18next resources by
 * namespace. A server without the localization module (404) or an unreachable one counts as empty.
 * Asked again on every language switch, so texts an administrator changed meanwhile show (an
 * unchanged dictionary is revalidated by its ETag and costs a 304).
 */
export async function loadServerDictionary(locale: Locale, options: { force?: boolean } = {}): Promise<number> {
  const key = `${locale}`;
  if (loaded.has(key) && !options.force && i18n.language !== locale) return 0;
  let dictionary: Record<string, Nested> | undefined;
  try {
    dictionary = await api.get<Record<string, Nested>>('/app/localization/language-dictionary', { culture: locale }, { silent: true, quietUnauthorized: true });
  } catch {
    return 0;
  }
  loaded.add(key);
  let namespaces = 0;
  for (const [ns, texts] of Object.entries(dictionary ?? {})) {
    if (!texts || typeof texts !== 'object') continue;
    i18n.addResourceBundle(locale, ns, texts, true, true);
    namespaces++;
  }
  // Re-render the texts already on screen.
  if (namespaces && i18n.language === locale) await i18n.changeLanguage(locale);
  return namespaces;
}

/** After signing in the dictionary may hold more (texts that need a signed-in caller). */
export const resetServerDictionary = () => loaded.clear();
