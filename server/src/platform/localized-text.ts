import type { LocalizedText } from '../db/schema.ts';

/**
 * Picks one language from a multilingual text for the caller's Accept-Language (exact culture,
 * then same language), falling back to zh-CN, en-US, then any text.
 */
export function localize(text: LocalizedText | null | undefined, acceptLanguage: string | string[] | undefined): string {
  if (!text) return '';
  const entries = Object.entries(text).filter(([, v]) => v);
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : (acceptLanguage ?? '');
  const wanted = header
    .split(',')
    .map((part) => part.split(';')[0]!.trim().toLowerCase())
    .filter(Boolean);
  for (const culture of wanted) {
    const exact = entries.find(([k]) => k.toLowerCase() === culture);
    if (exact) return exact[1];
    const language = culture.split('-')[0];
    const same = entries.find(([k]) => k.toLowerCase().split('-')[0] === language);
    if (same) return same[1];
  }
  return text['zh-CN'] || text['en-US'] || entries[0]?.[1] || '';
}
