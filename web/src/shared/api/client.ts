import type { TErrorResponse } from '@tessera/core/contracts/common';
import i18n from '../i18n/i18n.ts';
import { expireSession, getToken, loginPathFor, useSession } from '../auth/session.ts';
import { BASE_PATH } from '../base-path.ts';
import { addLog } from '../logs/log-store.ts';
import { feedback } from '../ui/feedback.tsx';

/**
 * spec §7: `{host}/api`. The host is where the app was served from, under its base path (`/erp/api`
 * behind a proxy's sub-path); a page-level `window.__TESSERA_API_HOST__` still overrides it for an
 * API on another origin.
 */
export const API_BASE = `${(window as { __TESSERA_API_HOST__?: string }).__TESSERA_API_HOST__ ?? BASE_PATH}/api`;
/** spec §9: request timeout 60000 ms. */
export const REQUEST_TIMEOUT_MS = 60_000;
const TOAST_SECONDS = 3;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly url: string,
    readonly body?: TErrorResponse | unknown,
  ) {
    super(message);
  }
  get validationErrors() {
    return (this.body as TErrorResponse | undefined)?.error?.validationErrors ?? [];
  }
}

/** One line for a toast: a failed call's first validation message, else its message. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.validationErrors[0]?.message ?? err.message;
  return err instanceof Error ? err.message : String(err);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** Do not show the toast (the caller shows the error itself, e.g. at a form field). */
  silent?: boolean;
  /** A background call (language dictionary, badges): a 401 does not open the sign-in-again dialog. */
  quietUnauthorized?: boolean;
  signal?: AbortSignal;
  /** The request outlives the page (sent while the tab closes or the browser quits). */
  keepalive?: boolean;
}

let expiredDialogOpen = false;

// spec §8: 401 asks to sign in again; OK removes token and uuid cookies, clears the user, goes to login.
function onExpired() {
  if (expiredDialogOpen) return;
  expiredDialogOpen = true;
  const goLogin = () => {
    expiredDialogOpen = false;
    const current = window.location.hash.replace(/^#/, '') || '/';
    const redirect = current.startsWith('/login') ? new URLSearchParams(current.split('?')[1] ?? '').get('redirect') ?? '/' : current;
    window.location.hash = `#${loginPathFor(redirect)}`;
    expireSession();
  };
  if (!feedback.modal) return goLogin();
  feedback.modal.confirm({
    title: i18n.t('common:error.expiredTitle'),
    content: i18n.t('common:error.expired'),
    okCancel: false,
    onOk: goLogin,
  });
}

/** spec §8 texts per status. */
export function messageForStatus(status: number, serverMessage: string | undefined, url: string): string {
  const fixed: Record<number, string> = {
    408: i18n.t('common:error.408'),
    501: i18n.t('common:error.501'),
    502: i18n.t('common:error.502'),
    503: i18n.t('common:error.503'),
    504: i18n.t('common:error.504'),
    505: i18n.t('common:error.505'),
  };
  if (status === 404) return `${i18n.t('common:error.404')}: ${url}`;
  return fixed[status] ?? serverMessage ?? i18n.t('common:error.unknown');
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  const url = `${API_BASE}${path}${search.size ? `?${search}` : ''}`;
  const token = getToken();
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      credentials: 'include',
      headers: {
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        'accept-language': i18n.language || 'zh-CN',
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      signal,
      keepalive: options.keepalive,
    });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    const timedOut = timeout.aborted;
    const message = timedOut ? i18n.t('common:error.408') : i18n.t('common:error.network');
    report(new ApiError(timedOut ? 408 : 0, message, url), options.silent);
    throw new ApiError(timedOut ? 408 : 0, message, url);
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (!response.ok) {
    const serverMessage = (body as TErrorResponse | undefined)?.error?.message;
    const error = new ApiError(response.status, messageForStatus(response.status, serverMessage, url), url, body);
    // A signed-in session that ended: its token was refused, or the browser dropped the token cookie
    // (it lives a day) while the app still holds the user — both ask to sign in again (spec §8).
    if (response.status === 401 && (token || useSession.getState().user)) {
      addLog({ type: 'error', message: i18n.t('common:error.requestFailed'), meta: { url, status: 401, message: error.message } });
      if (!options.quietUnauthorized) onExpired();
    } else {
      report(error, options.silent);
    }
    throw error;
  }
  return body as T;
}

function report(error: ApiError, silent?: boolean) {
  addLog({ type: 'error', message: i18n.t('common:error.requestFailed'), meta: { url: error.url, status: error.status, message: error.message } });
  if (!silent) feedback.message?.error(error.message, TOAST_SECONDS);
}

export const api = {
  get: <T>(path: string, query?: RequestOptions['query'], options?: RequestOptions) => apiRequest<T>(path, { ...options, query }),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: RequestOptions) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
