import { describe, expect, it } from 'vitest';
import { validate, version } from 'uuid';
import { uuidv7 } from './ids.ts';

describe('uuidv7', () => {
  it('gives valid, distinct version-7 ids that increase, also within one millisecond and across pool refills', () => {
    const ids = Array.from({ length: 5000 }, () => uuidv7());
    for (const id of ids.slice(0, 50)) {
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
    }
    expect(new Set(ids).size).toBe(ids.length);
    const sorted = [...ids].sort();
    expect(sorted).toEqual(ids);
  });

  it('starts each millisecond at a random point: two processes do not count the same ids', () => {
    const first = uuidv7();
    const later = new Promise<string>((resolve) => setTimeout(() => resolve(uuidv7()), 5));
    return later.then((next) => {
      expect(next > first).toBe(true);
      // The random tail differs (the counter restarts from random bits each millisecond).
      expect(next.slice(24)).not.toBe(first.slice(24));
    });
  });
});
