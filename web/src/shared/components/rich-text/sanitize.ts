import DOMPurify from 'dompurify';
import { RICH_TEXT_ATTRIBUTES, RICH_TEXT_TAGS } from '@tessera/core/controls/rich-text';

// The browser's copy of the rich text rule: what the server stored is cleaned again before it is
// shown or edited (the core's allowlist; no inline styles at all here, no scheme but http(s) and mailto).

const ATTRIBUTES = [...new Set(Object.values(RICH_TEXT_ATTRIBUTES).flat())].filter((a) => a !== 'style');

export function sanitizeRichText(html: unknown): string {
  if (typeof html !== 'string' || html === '') return '';
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS: [...RICH_TEXT_TAGS],
    ALLOWED_ATTR: ATTRIBUTES,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  });
}
