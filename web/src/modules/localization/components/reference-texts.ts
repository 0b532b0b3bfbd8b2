import type { TNestedTexts } from '@tessera/core/contracts/localization';
import i18n from '../../../shared/i18n/i18n.ts';

// Every file that registers texts: modules' i18n.ts and shared `*-texts.ts` (lazy chunks; loading
// them only registers their namespaces).
// (This module's own texts are already loaded with its page.)
const TEXT_FILES = import.meta.glob(['/src/**/i18n.ts', '/src/**/*-texts.ts', '!/src/shared/i18n/**', '!/src/modules/localization/i18n.ts']);

let loading: Promise<void> | null = null;

/** Registers the texts of every module, so the translation grid lists all keys, not only the pages opened so far. */
export function loadAllTexts(): Promise<void> {
  loading ??= Promise.all(Object.values(TEXT_FILES).map((load) => load())).then(() => undefined);
  return loading;
}

/** i18next's in-memory resources of a culture, by namespace. */
export function bundlesOf(culture: string): Record<string, TNestedTexts> {
  return ((i18n.store.data as Record<string, Record<string, TNestedTexts>>)[culture] ?? {}) as Record<string, TNestedTexts>;
}

/** The cultures the web bundle carries texts for (the reference languages). */
export const BUNDLED_CULTURES = ['zh-CN', 'en-US'] as const;
