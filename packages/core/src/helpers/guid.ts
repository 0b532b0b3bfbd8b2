// spec §5: a GUID is 8-4-4-4-12 alphanumerics. The check is the spec's (letters and digits, not
// only hex) so legacy ids stay valid; generation produces RFC 4122 version 4 UUIDs.

const GUID_PATTERN = /^[0-9A-Za-z]{8}-[0-9A-Za-z]{4}-[0-9A-Za-z]{4}-[0-9A-Za-z]{4}-[0-9A-Za-z]{12}$/;

export function isGuid(value: unknown): value is string {
  return typeof value === 'string' && GUID_PATTERN.test(value);
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A random version 4 UUID from `crypto.getRandomValues` (present in browsers and Node). */
export function newGuid(): string {
  const b = new Uint8Array(16);
  globalThis.crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = (from: number, to: number) => {
    let s = '';
    for (let i = from; i < to; i++) s += HEX[b[i]];
    return s;
  };
  return `${h(0, 4)}-${h(4, 6)}-${h(6, 8)}-${h(8, 10)}-${h(10, 16)}`;
}

/** The all-zero GUID, used by legacy data for "no id". */
export const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';
