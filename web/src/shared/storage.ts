import { BASE_PATH } from './base-path.ts';

/**
 * Local storage scoped to this instance: two instances on one host (`/erp` and `/crm` behind one
 * proxy) share the browser's storage per origin, so their keys carry the base path. At the root
 * the keys stay as they were, and what users kept before survives the upgrade.
 */
export const scopedKey = (key: string) => (BASE_PATH ? `${BASE_PATH}:${key}` : key);

export const appStorage = {
  getItem: (key: string) => localStorage.getItem(scopedKey(key)),
  setItem: (key: string, value: string) => localStorage.setItem(scopedKey(key), value),
  removeItem: (key: string) => localStorage.removeItem(scopedKey(key)),
};
