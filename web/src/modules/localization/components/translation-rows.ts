import type { TLanguageDictionary, TNestedTexts, TPagedTextItem } from '@tessera/core/contracts/localization';

export type TextSource = 'admin' | 'builtIn' | 'missing';

export interface TranslationRow {
  /** `namespace\0key` */
  id: string;
  ns: string;
  key: string;
  reference: string | null;
  /** What users see in the target language now (custom text, else built-in text). */
  target: string | null;
  /** The built-in text of the target language (bundle or server), shown again when the custom text goes. */
  builtIn: string | null;
  adminId: string | null;
  source: TextSource;
}

type Bundles = Record<string, TNestedTexts | undefined>;

export function flattenTexts(texts: TNestedTexts | undefined, prefix = '', out = new Map<string, string>()) {
  for (const [k, v] of Object.entries(texts ?? {})) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else if (v && typeof v === 'object') flattenTexts(v, key, out);
  }
  return out;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** A text by key, accepting i18next plural forms on either side (`count` ↔ `count_other`). */
function lookup(texts: Map<string, string>, key: string): string | null {
  if (texts.has(key)) return texts.get(key)!;
  if (PLURAL.test(key)) return texts.get(key.replace(PLURAL, '')) ?? texts.get(key.replace(PLURAL, '_other')) ?? null;
  return texts.get(`${key}_other`) ?? null;
}

const byNamespace = (bundles: Bundles | TLanguageDictionary) => new Map(Object.entries(bundles).map(([ns, nested]) => [ns, flattenTexts(nested as TNestedTexts)]));

function adminByNamespace(items: TPagedTextItem[]) {
  const out = new Map<string, Map<string, TPagedTextItem>>();
  for (const item of items) {
    if (item.id === null || item.value === null) continue;
    let ns = out.get(item.resourceName);
    if (!ns) out.set(item.resourceName, (ns = new Map()));
    ns.set(item.key, item);
  }
  return out;
}

/**
 * Joins the reference language's texts (the web bundle's resources in memory, with that
 * language's custom texts) with the target language: its custom texts, the server's built-in
 * texts and, for the bundled languages, the bundle. One row per key, custom keys included.
 */
export function buildTranslationRows(input: {
  referenceBundles: Bundles;
  referenceAdmin: TPagedTextItem[];
  targetBundles: Bundles;
  targetDictionary: TLanguageDictionary;
  targetAdmin: TPagedTextItem[];
}): TranslationRow[] {
  const refBundles = byNamespace(input.referenceBundles);
  const refAdmin = adminByNamespace(input.referenceAdmin);
  const targetBundles = byNamespace(input.targetBundles);
  const targetDictionary = byNamespace(input.targetDictionary);
  const targetAdmin = adminByNamespace(input.targetAdmin);

  const keys = new Map<string, Set<string>>();
  const add = (ns: string, key: string) => {
    let set = keys.get(ns);
    if (!set) keys.set(ns, (set = new Set()));
    set.add(key);
  };
  for (const [ns, texts] of refBundles) for (const key of texts.keys()) add(ns, key);
  for (const [ns, texts] of refAdmin) for (const key of texts.keys()) add(ns, key);
  for (const [ns, texts] of targetAdmin) for (const key of texts.keys()) add(ns, key);

  const rows: TranslationRow[] = [];
  const empty = new Map<string, string>();
  for (const ns of [...keys.keys()].sort()) {
    for (const key of [...keys.get(ns)!].sort()) {
      const reference = refAdmin.get(ns)?.get(key)?.value ?? lookup(refBundles.get(ns) ?? empty, key);
      const admin = targetAdmin.get(ns)?.get(key) ?? null;
      // The server dictionary holds built-in texts and custom texts: without a custom text it is built-in.
      const serverText = admin ? null : lookup(targetDictionary.get(ns) ?? empty, key);
      const builtIn = serverText ?? lookup(targetBundles.get(ns) ?? empty, key);
      const target = admin?.value ?? builtIn;
      rows.push({
        id: `${ns}\u0000${key}`,
        ns,
        key,
        reference,
        target,
        builtIn: admin ? lookup(targetBundles.get(ns) ?? empty, key) : builtIn,
        adminId: admin?.id ?? null,
        source: admin ? 'admin' : target ? 'builtIn' : 'missing',
      });
    }
  }
  return rows;
}
