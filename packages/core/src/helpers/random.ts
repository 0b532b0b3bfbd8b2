// spec §9: random strings default to 32 characters (6 for tab names); local codes are 'code'
// followed by six random digits. Not for secrets: use for client-side keys and codes only.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const DEFAULT_RANDOM_LENGTH = 32;
export const TAB_RANDOM_LENGTH = 6;

/** Uniform index below `n` from `crypto.getRandomValues` (rejection sampling, no modulo bias). */
function randomBelow(n: number, buf: Uint8Array, state: { i: number }): number {
  const limit = 256 - (256 % n);
  for (;;) {
    if (state.i >= buf.length) {
      globalThis.crypto.getRandomValues(buf);
      state.i = 0;
    }
    const v = buf[state.i++];
    if (v < limit) return v % n;
  }
}

/** Random letters and digits; length 32 unless given. */
export function randomString(length: number = DEFAULT_RANDOM_LENGTH, alphabet: string = ALPHABET): string {
  if (!Number.isInteger(length) || length < 0 || length > 4096) throw new RangeError('length must be an integer 0..4096');
  const buf = new Uint8Array(length + 16);
  const state = { i: buf.length };
  let out = '';
  for (let k = 0; k < length; k++) out += alphabet[randomBelow(alphabet.length, buf, state)];
  return out;
}

/** A tab key: six random letters/digits. */
export function randomTabKey(): string {
  return randomString(TAB_RANDOM_LENGTH);
}

/** `code` + six random digits, e.g. `code042917` (designer-assigned local control codes). */
export function localCode(): string {
  return `code${randomString(6, '0123456789')}`;
}
