import { getToken } from '../auth/session.ts';
import i18n from '../i18n/i18n.ts';
import { API_BASE, ApiError, messageForStatus } from './client.ts';

/** A name the browser saves a file under on any system: no path or reserved characters, no blanks, at most 60 characters. */
export const safeFileName = (name: string, fallback: string) => name.replace(/[\\/:*?"<>|\s]+/g, '_').slice(0, 60) || fallback;

/** Hands a blob to the browser as a downloaded file. */
export function saveFile(blob: Blob, fileName: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

export interface DownloadOptions {
  method?: 'GET' | 'POST';
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON body (POST). */
  body?: unknown;
  /** The name to save under; otherwise the server's `content-disposition` name, else `fallbackName`. */
  fileName?: string;
  fallbackName?: string;
}

/**
 * Fetches a file answer (Excel, JSON, PDF) with the caller's token — a file, so not through the
 * JSON client; a failure carries the server's message as the client's errors do (spec §8).
 * Answers the blob and the server's `content-disposition` name, if any.
 */
export async function fetchFile(path: string, options: Omit<DownloadOptions, 'fileName' | 'fallbackName'> = {}): Promise<{ blob: Blob; serverName: string | undefined }> {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined && v !== '') search.set(k, String(v));
  const url = `${API_BASE}${path}${search.size ? `?${search}` : ''}`;
  const token = getToken();
  const response = await fetch(url, {
    method: options.method ?? 'GET',
    credentials: 'include',
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'accept-language': i18n.language || 'zh-CN',
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  if (!response.ok) {
    const body = await response.json().catch(() => undefined);
    throw new ApiError(response.status, messageForStatus(response.status, body?.error?.message, url), url, body);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
  const serverName = encoded ? decodeURIComponent(encoded) : /filename="([^"]+)"/.exec(disposition)?.[1];
  return { blob: await response.blob(), serverName };
}

/** Downloads a file answer and hands it to the browser under `fileName`, else the server's name, else `fallbackName`. */
export async function downloadFile(path: string, options: DownloadOptions = {}): Promise<void> {
  const { blob, serverName } = await fetchFile(path, options);
  saveFile(blob, options.fileName ?? serverName ?? options.fallbackName ?? 'download.xlsx');
}
