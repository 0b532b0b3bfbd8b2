import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

/**
 * Bump when the renderer or the allow-list changes: stored HTML of an older version is rendered
 * again when read, so a tightened allow-list reaches every document.
 */
export const RENDER_VERSION = 1;

const marked = new Marked({ gfm: true, breaks: false });

/** Images may be inline only as raster data URLs (an SVG data URL can carry script). */
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/=\s]+$/i;
/** What a browser would read as the scheme: control characters and spaces are ignored. */
const normalisedUrl = (value: string) => value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'em', 'strong', 'del', 's', 'b', 'i', 'u',
    'sub', 'sup', 'kbd', 'mark', 'ul', 'ol', 'li', 'a', 'img', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'input',
    'details', 'summary', 'dl', 'dt', 'dd', 'span',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['align'],
    td: ['align'],
    ol: ['start'],
    code: ['class'],
    input: ['type', 'checked', 'disabled'],
    details: ['open'],
  },
  allowedClasses: { code: ['language-*'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Dropped with everything inside them, not just their tags.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'math', 'xmp', 'noembed', 'noframes', 'title', 'head'],
  transformTags: {
    a: (tagName, attribs) => {
      const href = attribs.href ?? '';
      const external = /^https?:/.test(normalisedUrl(href));
      const { target: _target, rel: _rel, ...rest } = attribs;
      return { tagName, attribs: external ? { ...rest, target: '_blank', rel: 'noopener noreferrer nofollow' } : rest };
    },
    img: (tagName, attribs) => {
      const { src, ...rest } = attribs;
      const url = normalisedUrl(src ?? '');
      const keep = src !== undefined && (!url.startsWith('data:') || DATA_IMAGE.test(src.trim()));
      return { tagName, attribs: keep ? { ...rest, src: src!, loading: 'lazy' } : rest };
    },
    // GFM task lists: a read-only checkbox; any other input goes (an unknown tag is discarded).
    input: (_tagName, attribs) =>
      (attribs.type ?? '').toLowerCase() === 'checkbox'
        ? { tagName: 'input', attribs: { type: 'checkbox', disabled: '', ...(attribs.checked !== undefined ? { checked: '' } : {}) } }
        : { tagName: 'discarded-input', attribs: {} },
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};
(SANITIZE.allowedAttributes as Record<string, string[]>).img!.push('loading');

/** Markdown → HTML that is safe to insert into a page: an allow-list of tags, attributes and URL schemes. */
export function renderMarkdown(markdown: string): string {
  const raw = marked.parse(markdown, { async: false });
  return sanitizeHtml(raw, SANITIZE);
}

/** Any HTML → the same allow-list (used for the stored HTML and in tests of the allow-list itself). */
export function sanitizeHelpHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE);
}

/** The readable text of a document (for search snippets). */
export function plainText(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {}, nonTextTags: SANITIZE.nonTextTags })
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
