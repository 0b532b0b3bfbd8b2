import DOMPurify from 'dompurify';
import { useEffect, useMemo, useRef } from 'react';
import { API_BASE } from '../api/client.ts';
import { getToken } from '../auth/session.ts';
import './help-html.css';

const IMAGE_PATH = '/api/app/help-documents/images/';
const blobUrls = new Map<string, Promise<string>>();

/** Help images need the caller's token, which an <img> does not send: fetch once, show as a blob URL. */
function imageUrl(src: string): Promise<string> {
  let url = blobUrls.get(src);
  if (!url) {
    const token = getToken();
    url = fetch(`${API_BASE}${src.slice('/api'.length)}`, { headers: token ? { authorization: `Bearer ${token}` } : {} })
      .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(String(r.status)))))
      .then((blob) => URL.createObjectURL(blob));
    url.catch(() => blobUrls.delete(src));
    blobUrls.set(src, url);
  }
  return url;
}

/**
 * Shows a help document's HTML. The server renders and sanitises it; the browser sanitises it once
 * more (DOMPurify, same spirit: no script, no handlers, no javascript: URLs) before inserting it.
 */
export function HelpHtml({ html, className }: { html: string; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const clean = useMemo(
    () => DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form'], FORBID_ATTR: ['style'], ADD_ATTR: ['target'] }),
    [html],
  );
  useEffect(() => {
    let live = true;
    for (const img of ref.current?.querySelectorAll('img') ?? []) {
      const src = img.getAttribute('src') ?? '';
      if (!src.startsWith(IMAGE_PATH)) continue;
      img.removeAttribute('src');
      void imageUrl(src).then(
        (url) => live && (img.src = url),
        () => live && img.setAttribute('alt', `${img.alt || src} ⚠`),
      );
    }
    return () => {
      live = false;
    };
  }, [clean]);
  return <div ref={ref} className={`help-html ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: clean }} />;
}
