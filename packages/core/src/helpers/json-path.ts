// The rows of an HTTP source's JSON answer, picked by a small, safe subset of JSONPath (no filters,
// no scripts, no recursive descent): an optional `$`, then `.key`, `['key']` / `["key"]`, `[n]`
// (negative from the end), `[*]` and `.*`. Keys are read only where the value has them as its own
// (`__proto__`, `constructor` are ordinary missing keys on plain objects).

export type JsonPathSegment = { key: string } | { index: number } | { wildcard: true };

const KEY = /^[^.[\]\s'"]+/;

/** The path's segments, or null when it is not of the subset. '' and '$' are the whole answer. */
export function parseJsonPath(path: string): JsonPathSegment[] | null {
  let rest = path.trim();
  const out: JsonPathSegment[] = [];
  if (rest.startsWith('$')) rest = rest.slice(1);
  let first = true;
  while (rest.length > 0) {
    if (rest.startsWith('[')) {
      const m = /^\[\s*(?:(\*)|(-?\d{1,9})|'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\s*\]/.exec(rest);
      if (!m) return null;
      if (m[1]) out.push({ wildcard: true });
      else if (m[2] !== undefined) out.push({ index: Number(m[2]) });
      else out.push({ key: (m[3] ?? m[4] ?? '').replace(/\\(.)/g, '$1') });
      rest = rest.slice(m[0].length);
    } else {
      // A dotted key: after a dot, or first of all without `$` (`data.items`).
      if (rest.startsWith('.')) rest = rest.slice(1);
      else if (!(first && out.length === 0 && !path.trim().startsWith('$'))) return null;
      if (rest.startsWith('*')) {
        out.push({ wildcard: true });
        rest = rest.slice(1);
        continue;
      }
      const m = KEY.exec(rest);
      if (!m) return null;
      out.push({ key: m[0] });
      rest = rest.slice(m[0].length);
    }
    first = false;
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The values the path selects, as rows: an array it ends on gives its elements, a wildcard gives
 * every match, one other value is one row; nothing found is no rows.
 */
export function selectJsonRows(answer: unknown, segments: readonly JsonPathSegment[]): unknown[] {
  let values: unknown[] = [answer];
  let spread = false;
  for (const s of segments) {
    const next: unknown[] = [];
    for (const v of values) {
      if ('wildcard' in s) {
        if (Array.isArray(v)) next.push(...v);
        else if (isObject(v)) next.push(...Object.values(v));
      } else if ('index' in s) {
        if (Array.isArray(v)) {
          const i = s.index < 0 ? v.length + s.index : s.index;
          if (i >= 0 && i < v.length) next.push(v[i]);
        }
      } else if (isObject(v) && Object.hasOwn(v, s.key)) next.push(v[s.key]);
    }
    if ('wildcard' in s) spread = true;
    values = next;
  }
  if (spread) return values;
  if (values.length === 0 || values[0] === undefined) return [];
  return Array.isArray(values[0]) ? values[0] : [values[0]];
}
