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
  useSession.getState().setUser(result.user);
}

/** Removes the three cookies and the stored user; tabs and personal settings stay for next time. */
export function clearSession() {
  for (const name of ['uuid', 'token', 'isAdmin']) Cookies.remove(name, COOKIE_PATH);
  useSession.getState().setUser(null);
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
