import Cookies from 'js-cookie';
import type { TCurrentUser } from '@tessera/core/contracts/auth';
import { create } from 'zustand';
import { BASE_PATH } from '../base-path.ts';
import { appStorage } from '../storage.ts';

/** spec §4: cookies uuid, token and isAdmin, one day. */
const COOKIE_DAYS = 1;
/**
 * Scoped to this instance's path (two instances on one host keep separate sessions); `Secure` on
 * https only — over a LAN's plain http a Secure cookie would never be stored.
 */
const COOKIE_PATH = { path: `${BASE_PATH}/` };
const USER_KEY = 'tessera.user';
/**
 * Who signed in last in this browser: kept when the session expires (the sign-in page's redirect
 * is theirs), gone when they log out. A redirect never takes another user to their page.
 */
const LAST_USER_KEY = 'tessera.lastUserId';
/** Set by logging out until the sign-in page shows: the way to it carries no redirect. */
let signedOut = false;

export const getToken = () => Cookies.get('token') ?? null;
export const isAdminCookie = () => Cookies.get('isAdmin') === 'true';

interface SessionState {
  user: TCurrentUser | null;
  setUser(user: TCurrentUser | null): void;
}

function storedUser(): TCurrentUser | null {
  try {
    return getToken() ? (JSON.parse(appStorage.getItem(USER_KEY) ?? 'null') as TCurrentUser | null) : null;
  } catch {
    return null;
  }
}

export const useSession = create<SessionState>((set) => ({
  user: storedUser(),
  setUser(user) {
    if (user) appStorage.setItem(USER_KEY, JSON.stringify(user));
    else appStorage.removeItem(USER_KEY);
    set({ user });
  },
}));

export function signIn(result: { accessToken: string; isAdmin: boolean; user: TCurrentUser & { id: string } }) {
  const options = { ...COOKIE_PATH, expires: COOKIE_DAYS, sameSite: 'strict' as const, secure: window.location.protocol === 'https:' };
  Cookies.set('uuid', result.user.id, options);
  Cookies.set('token', result.accessToken, options);
  Cookies.set('isAdmin', String(result.isAdmin), options);
  appStorage.setItem(LAST_USER_KEY, result.user.id);
  signedOut = false;
  useSession.getState().setUser(result.user);
}

/**
 * Logging out: removes the three cookies and the stored user, and forgets who signed in, so the
 * next sign-in starts afresh (no redirect to this user's last page). Tabs and personal settings
 * stay for this user's next time.
 */
export function clearSession() {
  signedOut = true;
  appStorage.removeItem(LAST_USER_KEY);
  for (const name of ['uuid', 'token', 'isAdmin']) Cookies.remove(name, COOKIE_PATH);
  useSession.getState().setUser(null);
}

/**
 * The sign-in page's address for someone leaving `path` (a signed-in page): with `path` as redirect,
 * except right after logging out, when the page left was the previous user's.
 */
export function loginPathFor(path: string): string {
  if (signedOut || !path || path.startsWith('/login')) return '/login';
  return `/login?redirect=${encodeURIComponent(path)}`;
}

/** The sign-in page is showing: a later visit to a signed-in page may carry its redirect again. */
export function signInPageShown() {
  signedOut = false;
}

/**
 * Where to go after `userId` signed in: the redirect when it is theirs — the previous session in
 * this browser was theirs (it expired), or nobody's (a link opened before signing in) — else the
 * default page. A redirect left by another user (their session expired, someone else signs in)
 * is dropped.
 */
export function redirectTargetFor(userId: string, redirect: string | null, fallback: string): string {
  const path = safeRedirect(redirect);
  if (!path) return fallback;
  const previous = appStorage.getItem(LAST_USER_KEY);
  return previous && previous !== userId ? fallback : path;
}

/** A redirect that stays in the app (a path of it, not the sign-in page itself), else null. */
export function safeRedirect(redirect: string | null): string | null {
  return redirect && redirect.startsWith('/') && !redirect.startsWith('//') && !redirect.startsWith('/login') ? redirect : null;
}

/** spec §8: after a 401 the token and uuid cookies go and the user is cleared. */
export function expireSession() {
  for (const name of ['uuid', 'token']) Cookies.remove(name, COOKIE_PATH);
  useSession.getState().setUser(null);
}

/** spec §6: does the user hold every one of the codes? */
export function hasAccess(user: TCurrentUser | null, codes: string | string[] | undefined): boolean {
  if (!codes || (Array.isArray(codes) && codes.length === 0)) return true;
  if (!user) return false;
  const needed = Array.isArray(codes) ? codes : [codes];
  return needed.every((code) => user.access.includes(code));
}
