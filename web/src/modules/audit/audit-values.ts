/**
 * How an audit entry's values read to a person (issue 28, defect 6): yes / no for booleans, local
 * times for ISO timestamps, a multilingual text in the interface language, lists joined, a list of
 * named objects by their names. Only what fits none of these stays JSON.
 */
export interface ValueTexts {
  yes: string;
  no: string;
  empty: string;
  image: string;
  /** A multilingual text (`{ "zh-CN": …, "en-US": … }`) in the interface language. */
  localized: (text: Record<string, string>) => string;
  /** An ISO timestamp in local time. */
  time: (iso: string) => string;
  /** Joins a list (、 in Chinese, `, ` otherwise). */
  separator: string;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const CULTURE_KEY = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const NAME_KEYS = ['displayName', 'name', 'title', 'label', 'code'] as const;

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * `{ "zh-CN": "采购", "en-US": "Purchasing" }`: every key a culture, every value a string, and at
 * least one key with a region (so `{ id: "…" }` is not taken for one).
 */
export function isMultilingual(v: unknown): v is Record<string, string> {
  if (!isRecord(v)) return false;
  const entries = Object.entries(v);
  return entries.some(([k]) => k.includes('-')) && entries.every(([k, s]) => CULTURE_KEY.test(k) && typeof s === 'string');
}

/** The name a person knows an object by (a unit's display name, a role's name), if it has one. */
function nameOf(v: Record<string, unknown>, texts: ValueTexts): string | undefined {
  for (const key of NAME_KEYS) {
    const n = v[key];
    if (typeof n === 'string' && n) return n;
    if (isMultilingual(n)) return texts.localized(n);
  }
  return undefined;
}

export function auditValueText(v: unknown, texts: ValueTexts): string {
  if (v === undefined || v === null || v === '') return texts.empty;
  if (typeof v === 'boolean') return v ? texts.yes : texts.no;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') {
    if (v === '[image]') return texts.image;
    return ISO_TIME.test(v) ? texts.time(v) : v;
  }
  if (isMultilingual(v)) return texts.localized(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return texts.empty;
    const parts = v.map((item) => (isRecord(item) && !isMultilingual(item) ? nameOf(item, texts) : auditValueText(item, texts)));
    if (parts.every((p): p is string => typeof p === 'string')) return parts.join(texts.separator);
  }
  return JSON.stringify(v);
}
