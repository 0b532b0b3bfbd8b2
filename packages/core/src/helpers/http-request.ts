// Templates of an HTTP source's requests: `{{name}}` in the path, query values, header values and
// the JSON body, and `:name` in the path as well (`/customers/:id`). Pure text work, shared by the
// server (which sends the request) and the workbench (which lists the parameters as they are typed).

export interface HttpRequestTemplate {
  path: string;
  query: readonly { name: string; value: string }[];
  headers: readonly { name: string; value: string }[];
  body: string;
}

export type TemplateValue = string | number | boolean | null;

const BRACES = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
/** `{{name}}`, or `:name` starting a path segment (`/customers/:id`; `/items:search` is no parameter). */
const PATH_PARAM = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}|(?<=^|\/):([A-Za-z_][A-Za-z0-9_]*)/g;

/** The parameter names a request's templates use, in order of first use. */
export function httpParameterNames(t: HttpRequestTemplate): string[] {
  const names: string[] = [];
  const add = (name: string | undefined) => {
    if (name && !names.includes(name)) names.push(name);
  };
  for (const m of t.path.matchAll(PATH_PARAM)) add(m[1] ?? m[2]);
  for (const q of t.query) for (const m of q.value.matchAll(BRACES)) add(m[1]);
  for (const h of t.headers) for (const m of h.value.matchAll(BRACES)) add(m[1]);
  for (const m of t.body.matchAll(BRACES)) add(m[1]);
  return names;
}

const asText = (v: TemplateValue | undefined) => (v === null || v === undefined ? '' : String(v));

/** A path with each parameter's value URL-encoded (one path segment's worth: `/`, `?`, `#` are encoded too). */
export function fillPath(path: string, values: Readonly<Record<string, TemplateValue>>): string {
  return path.replace(PATH_PARAM, (_, a: string | undefined, b: string | undefined) => encodeURIComponent(asText(values[(a ?? b)!])));
}

/** A query or header value with each parameter's value as text (URL encoding is the query string's). */
export function fillText(text: string, values: Readonly<Record<string, TemplateValue>>): string {
  return text.replace(BRACES, (_, name: string) => asText(values[name]));
}

/** A query value that is one parameter alone, whose value is null: the parameter is left out of the query string. */
export function isNullAlone(text: string, values: Readonly<Record<string, TemplateValue>>): boolean {
  const m = /^\s*\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}\s*$/.exec(text);
  return Boolean(m && (values[m[1]!] === null || values[m[1]!] === undefined));
}

/**
 * The JSON body with each `{{name}}` replaced by its value as JSON: standing alone, the value
 * itself (`{{n}}` → 5, "x", true, null); inside a JSON string, its text escaped for that string
 * (`"Hi {{who}}"` → "Hi \"Bob\""). Values never become JSON syntax. Throws a SyntaxError when the
 * result is not JSON. '' is no body (null).
 */
export function fillJsonBody(template: string, values: Readonly<Record<string, TemplateValue>>): unknown {
  if (!template.trim()) return null;
  let out = '';
  let inString = false;
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    if (c === '{' && template[i + 1] === '{') {
      const m = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/.exec(template.slice(i));
      if (m) {
        const value = values[m[1]!] ?? null;
        out += inString ? JSON.stringify(asText(value)).slice(1, -1) : JSON.stringify(value);
        i += m[0].length;
        continue;
      }
    }
    if (inString && c === '\\') {
      out += template.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === '"') inString = !inString;
    out += c;
    i++;
  }
  return JSON.parse(out);
}
