import { describe, expect, it } from 'vitest';
import { localCode, randomString, randomTabKey } from './random.ts';

describe('random helpers (spec §9)', () => {
  it.each([
    ['randomString()', () => randomString(), /^[A-Za-z0-9]{32}$/],
    ['randomString(10)', () => randomString(10), /^[A-Za-z0-9]{10}$/],
    ['randomString(0)', () => randomString(0), /^$/],
    ['randomTabKey()', () => randomTabKey(), /^[A-Za-z0-9]{6}$/],
    ['localCode()', () => localCode(), /^code\d{6}$/],
  ])('%s has the right shape', (_name, make, pattern) => {
    for (let i = 0; i < 200; i++) expect(make()).toMatch(pattern);
  });

  it('varies and uses every symbol of the alphabet', () => {
    expect(new Set(Array.from({ length: 100 }, () => randomString())).size).toBe(100);
    const seen = new Set(randomString(4000, 'abc'));
    expect([...seen].sort()).toEqual(['a', 'b', 'c']);
  });

  it('rejects bad lengths', () => {
    expect(() => randomString(-1)).toThrow(RangeError);
    expect(() => randomString(1.5)).toThrow(RangeError);
  });
});
