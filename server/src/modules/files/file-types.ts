/**
 * What an uploaded file is, from its first bytes — never from the name or the type the browser
 * sent. Images (1014) must be PNG, JPEG, GIF or WebP. Attachments (1013) may be anything but what
 * a browser or the desktop would run: executables, scripts, HTML and SVG are refused by extension
 * and by content (every attachment is served as a download with `nosniff` and a sandbox anyway).
 */

export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** Bytes read before deciding (enough for every signature below and an HTML prologue). */
export const SNIFF_BYTES = 1024;

const startsWith = (head: Uint8Array, bytes: readonly number[], at = 0) => bytes.every((b, i) => head[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image type the bytes are, or null. */
export function sniffImage(head: Uint8Array): ImageType | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

const OTHER_TYPES: readonly [type: string, bytes: readonly number[]][] = [
  ['application/pdf', ascii('%PDF-')],
  ['application/zip', [0x50, 0x4b, 0x03, 0x04]],
  ['application/x-ole-storage', [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]],
];

/** The stored content type of an attachment: a recognised type, else `application/octet-stream`. */
export function sniffAttachment(head: Uint8Array): string {
  return sniffImage(head) ?? OTHER_TYPES.find(([, bytes]) => startsWith(head, bytes))?.[0] ?? 'application/octet-stream';
}

const BLOCKED_EXTENSIONS = new Set([
  'exe', 'dll', 'com', 'scr', 'msi', 'msp', 'bat', 'cmd', 'ps1', 'psm1', 'vbs', 'vbe', 'js', 'mjs', 'jse', 'wsf', 'wsh', 'hta',
  'cpl', 'lnk', 'reg', 'jar', 'sh', 'app', 'apk', 'html', 'htm', 'xhtml', 'shtml', 'svg', 'svgz', 'xml', 'xsl', 'mht', 'mhtml',
]);

/** Executable headers (Windows PE, ELF, Mach-O) and markup a browser would render. */
const RUNNABLE = [[0x4d, 0x5a], [0x7f, 0x45, 0x4c, 0x46], [0xcf, 0xfa, 0xed, 0xfe], [0xfe, 0xed, 0xfa, 0xcf], [0xca, 0xfe, 0xba, 0xbe]] as const;
const MARKUP = /<\s*(!doctype\s+html|html|head|body|script|svg|iframe|object|embed|\?xml)\b/i;

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).trim().toLowerCase();
}

/** Why an attachment is refused ('extension' or 'content'), or null when it may be stored. */
export function attachmentProblem(name: string, head: Uint8Array): 'extension' | 'content' | null {
  if (BLOCKED_EXTENSIONS.has(extensionOf(name))) return 'extension';
  if (RUNNABLE.some((bytes) => startsWith(head, bytes))) return 'content';
  // Text that opens with markup (after a BOM or whitespace) would render as a page if ever sniffed.
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, SNIFF_BYTES)).replace(/^\uFEFF/, '').trimStart();
  if (MARKUP.test(text.slice(0, 256))) return 'content';
  return null;
}

/** An attachment control's accepted extensions (`extraProperties.accept`, `.pdf,.docx`), lower case without dots; empty: any. */
export function acceptedExtensions(accept: unknown): string[] {
  if (typeof accept !== 'string') return [];
  return accept.split(',').map((e) => e.trim().replace(/^\./, '').toLowerCase()).filter(Boolean);
}

/**
 * A file name safe to keep and to send back: the last path segment, without control characters,
 * at most 255 characters; empty names become `file`.
 */
export function cleanFileName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = last.replace(/[\u0000-\u001f\u007f"]/g, '').trim().slice(0, 255);
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
}

/** `Content-Disposition` with the name in RFC 5987 form (Chinese names intact) and an ASCII fallback. */
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\;]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
