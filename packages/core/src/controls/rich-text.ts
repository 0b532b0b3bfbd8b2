// Rich text (control type 1012) is stored as HTML, and HTML from users is hostile: the server
// sanitises every value on save (sanitize-html) and the browser sanitises again wherever it shows
// one (DOMPurify), both with this one allowlist. Everywhere else (lists, grids, Excel, history,
// quick search) a person reads the plain text.

/** Tags a rich text value may hold; everything else is dropped (its text kept, `<script>` and `<style>` dropped whole). */
export const RICH_TEXT_TAGS = [
  'p', 'br', 'b', 'strong', 'i', 'em', 'u', 's', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'a', 'blockquote', 'code', 'pre',
  'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span',
] as const;

/** Attributes by tag; no event handlers, no `style` except the few properties below on spans. */
export const RICH_TEXT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'target', 'rel'],
  span: ['style'],
  th: ['colspan', 'rowspan'],
  td: ['colspan', 'rowspan'],
};

/** Link schemes a rich text value may point at (no `javascript:`, no `data:`). */
export const RICH_TEXT_SCHEMES = ['http', 'https', 'mailto'] as const;

/** Style properties a span may set, each with the values allowed. */
export const RICH_TEXT_STYLES: Readonly<Record<string, RegExp>> = {
  color: /^(#[0-9a-f]{3,6}|rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\))$/i,
  'background-color': /^(#[0-9a-f]{3,6}|rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\))$/i,
  'text-decoration': /^(underline|line-through)$/,
};

/** The most characters a stored rich text value has (its HTML). */
export const RICH_TEXT_MAX_LENGTH = 200_000;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const decodeEntities = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });

/**
 * The text a person reads in a rich text value: tags removed, block ends and `<br>` as line breaks,
 * entities decoded, runs of blank lines collapsed. For display only: the result is text, never HTML.
 */
export function richTextToPlain(html: unknown): string {
  if (typeof html !== 'string' || html === '') return '';
  return decodeEntities(
    html
      .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/(p|div|h[1-6]|li|blockquote|pre|tr)\s*>/gi, '\n')
      .replace(/<\/?[a-z][^>]*>/gi, '')
      .replace(/<!--[\s\S]*?-->/g, ''),
  )
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Plain text (an Excel cell) as rich text: each line a paragraph, every character escaped. */
export function plainTextToRichText(text: string): string {
  if (text.trim() === '') return '';
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => (line === '' ? '<p></p>' : `<p>${escapeHtml(line)}</p>`))
    .join('');
}
