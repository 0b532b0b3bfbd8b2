/**
 * The browser's side of the registration captcha: an ALTCHA v2 SHA-256 proof of work. Find the
 * counter whose SHA-256(salt ‖ nonce ‖ counter as uint32 big-endian) starts with `keyPrefix`.
 * The hash is passed in, so a worker can use a pure-JS SHA-256: `crypto.subtle` exists only in
 * secure contexts, and the product runs over plain http on office LANs.
 */
export interface ProofOfWorkParameters {
  nonce: string;
  salt: string;
  keyPrefix: string;
}

export interface ProofOfWorkSolution {
  counter: number;
  derivedKey: string;
}

export interface SolveOptions {
  sha256(data: Uint8Array): Uint8Array;
  /** Several workers share the search: worker i of n starts at i and steps by n. */
  start?: number;
  step?: number;
  /** Asked every few thousand counters; true gives up (null). */
  shouldStop?(): boolean;
}

const MAX_COUNTER = 0xffffffff;

export function hexToBytes(hex: string): Uint8Array {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new Error('not hex');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export const bytesToHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

export function solveProofOfWork(parameters: ProofOfWorkParameters, options: SolveOptions): ProofOfWorkSolution | null {
  const salt = hexToBytes(parameters.salt);
  const nonce = hexToBytes(parameters.nonce);
  const prefix = parameters.keyPrefix.toLowerCase();
  // Even-length prefixes compare bytes; an odd one compares hex text (as altcha-lib does).
  const prefixBytes = prefix.length % 2 === 0 ? hexToBytes(prefix) : null;
  const data = new Uint8Array(salt.length + nonce.length + 4);
  data.set(salt, 0);
  data.set(nonce, salt.length);
  const view = new DataView(data.buffer);
  const step = Math.max(1, options.step ?? 1);
  for (let counter = options.start ?? 0, i = 0; counter <= MAX_COUNTER; counter += step, i++) {
    if (i % 4096 === 0 && options.shouldStop?.()) return null;
    view.setUint32(salt.length + nonce.length, counter, false);
    const key = options.sha256(data);
    const matches = prefixBytes ? prefixBytes.every((b, k) => key[k] === b) : bytesToHex(key).startsWith(prefix);
    if (matches) return { counter, derivedKey: bytesToHex(key) };
  }
  return null;
}
