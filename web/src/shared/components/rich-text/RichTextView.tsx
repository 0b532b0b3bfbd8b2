import { useMemo } from 'react';
import { sanitizeRichText } from './sanitize.ts';
import './rich-text.css';

/** A rich text value shown read-only, cleaned by DOMPurify first (HTML from users is hostile). */
export function RichTextView({ html, id, label }: { html: unknown; id?: string; label?: string }) {
  const clean = useMemo(() => sanitizeRichText(html), [html]);
  return <div id={id} className="tz-rich-text tz-rich-text-view" role="document" aria-label={label} dangerouslySetInnerHTML={{ __html: clean }} />;
}
