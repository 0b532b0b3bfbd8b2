import { RICH_TEXT_ATTRIBUTES, RICH_TEXT_MAX_LENGTH, RICH_TEXT_SCHEMES, RICH_TEXT_STYLES, RICH_TEXT_TAGS } from '@tessera/core/controls/rich-text';
import sanitizeHtml from 'sanitize-html';

// Rich text (1012) from users is hostile: every value is cleaned with the core's allowlist before it
// is kept (parse step) and again before it is written (record-values.ts), so no script, event
// handler, `javascript:` link or foreign style reaches the database whatever set the value.

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: Object.fromEntries(Object.entries(RICH_TEXT_ATTRIBUTES).map(([tag, names]) => [tag, [...names]])),
  allowedStyles: { span: Object.fromEntries(Object.entries(RICH_TEXT_STYLES).map(([name, value]) => [name, [value]])) },
  allowedSchemes: [...RICH_TEXT_SCHEMES],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Dropped with everything inside them, not just their tags.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'math', 'xmp', 'noembed', 'noframes', 'title', 'head'],
  transformTags: {
    // Links open in a new tab without handing it this window.
    a: (tagName, attribs) => ({ tagName, attribs: { ...(attribs.href ? { href: attribs.href } : {}), target: '_blank', rel: 'noopener noreferrer nofollow' } }),
  },
};

/**
 * The stored form of a rich text value. A value past the length limit is returned as it is: the
 * validation step refuses it (400) without the cost of cleaning it.
 */
export function sanitizeRichText(html: string): string {
  return html.length > RICH_TEXT_MAX_LENGTH ? html : sanitizeHtml(html, SANITIZE);
}
