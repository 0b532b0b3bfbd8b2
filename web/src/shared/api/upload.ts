import i18n from '../i18n/i18n.ts';
import { getToken } from '../auth/session.ts';
import { API_BASE, ApiError, type RequestOptions } from './client.ts';

/** The content type of an .xlsx file (what the server's import routes take as the raw body). */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface UploadOptions {
  /** Query parameters (the import's page, view, culture…); empty values are left out. */
  query?: RequestOptions['query'];
  /** The body's content type (default: an .xlsx workbook; a FormData body sets its own multipart type). */
  contentType?: string;
  /** 0–100 while the file travels (XMLHttpRequest reports upload progress; fetch does not). */
  onProgress?: (percent: number) => void;
}

/**
 * Sends a file as the raw request body (not base64 inside JSON: the server reads it as it is) and
 * answers the JSON reply. Errors are ApiErrors carrying the server's body (row errors,
 * validationErrors); the caller shows them — no toast from here.
 */
export function uploadFile<T>(path: string, file: Blob | FormData, options: UploadOptions = {}): Promise<T> {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  const url = `${API_BASE}${path}${search.size ? `?${search}` : ''}`;
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    if (!(file instanceof FormData)) xhr.setRequestHeader('content-type', options.contentType ?? XLSX_TYPE);
    xhr.setRequestHeader('accept-language', i18n.language || 'zh-CN');
    const token = getToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    const onProgress = options.onProgress;
    if (onProgress) xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(new ApiError(xhr.status, (body as { error?: { message?: string } } | undefined)?.error?.message ?? xhr.statusText, url, body));
    };
    xhr.onerror = () => reject(new ApiError(0, i18n.t('common:error.network'), url));
    xhr.send(file);
  });
}
