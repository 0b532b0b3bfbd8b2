import type { TFileRef } from '@tessera/core/contracts/files';
import { getToken } from '../auth/session.ts';
import i18n from '../i18n/i18n.ts';
import { API_BASE, ApiError, messageForStatus } from './client.ts';
import { downloadFile } from './download.ts';
import { uploadFile } from './upload.ts';

/*
 * Files of attachment and image controls (server module `files`). The API takes the bearer token,
 * which an <img src> cannot send: thumbnails and images are fetched here and shown as blob URLs.
 */

/** Uploads one file for a control of a page (multipart: pageCode, controlCode, file). */
export function uploadControlFile(pageCode: string, controlCode: string, file: File, onProgress?: (percent: number) => void): Promise<TFileRef> {
  const form = new FormData();
  form.append('pageCode', pageCode);
  form.append('controlCode', controlCode);
  form.append('file', file, file.name);
  return uploadFile<TFileRef>('/app/files', form, { onProgress });
}

/** Saves a stored file under its own name (the server sends it as an attachment). */
export function downloadStoredFile(id: string, name: string): Promise<void> {
  return downloadFile(`/app/files/${encodeURIComponent(id)}`, { fileName: name });
}

const urls = new Map<string, Promise<string>>();

/** A blob URL of an image's thumbnail or the image itself, fetched once per page load. */
export function storedImageUrl(id: string, kind: 'thumbnail' | 'image'): Promise<string> {
  const key = `${kind}:${id}`;
  let url = urls.get(key);
  if (!url) {
    const path = kind === 'thumbnail' ? `/app/files/${encodeURIComponent(id)}/thumbnail` : `/app/files/${encodeURIComponent(id)}?inline=1`;
    url = fetchBlobUrl(`${API_BASE}${path}`);
    url.catch(() => urls.delete(key));
    urls.set(key, url);
  }
  return url;
}

async function fetchBlobUrl(url: string): Promise<string> {
  const token = getToken();
  const response = await fetch(url, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'accept-language': i18n.language || 'zh-CN' } });
  if (!response.ok) {
    const body = await response.json().catch(() => undefined);
    throw new ApiError(response.status, messageForStatus(response.status, body?.error?.message, url), url, body);
  }
  return URL.createObjectURL(await response.blob());
}
