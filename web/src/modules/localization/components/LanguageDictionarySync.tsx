import { useLanguageDictionarySync } from '../sync.ts';

/** Mounted once by the app: keeps the on-screen texts in step with language management. */
export function LanguageDictionarySync() {
  useLanguageDictionarySync();
  return null;
}
