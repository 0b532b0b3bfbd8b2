import { describe, expect, it } from 'vitest';
import { decimalPlaces, roundHalfAwayFromZero, toFixedHalfAwayFromZero } from './round.ts';

describe('roundHalfAwayFromZero (Excel ROUND)', () => {
  it.each([
    [2.5, 0, 3], [-2.5, 0, -3], [1.005, 2, 1.01], [2.675, 2, 2.68], [1.234, 2, 1.23], [-1.005, 2, -1.01],
    [1234.5678, -2, 1200], [1250, -2, 1300], [-1250, -2, -1300], [0.1 + 0.2, 1, 0.3], [123.456, 1.9, 123.5],
    [5, 2, 5], [0, 2, 0], [-0.004, 2, 0], [1e20, 2, 1e20], [4.35 * 100, 0, 435],
  ])('ROUND(%s, %s) = %s', (value, digits, expected) => {
    expect(roundHalfAwayFromZero(value, digits)).toBe(expected);
  });
  it('keeps non-finite values', () => {
    expect(roundHalfAwayFromZero(Number.NaN, 2)).toBeNaN();
    expect(roundHalfAwayFromZero(Infinity, 2)).toBe(Infinity);
  });
  it.each([[1234.5, 2, '1234.50'], [1.005, 2, '1.01'], [-0.5, 0, '-1'], [3, 0, '3']])('toFixed(%s, %s) = %s', (v, d, t) => {
    expect(toFixedHalfAwayFromZero(v, d)).toBe(t);
  });
});

describe('decimalPlaces', () => {
  it('counts the decimals as written', () => {
    expect([decimalPlaces(2.555), decimalPlaces('1,234.50'), decimalPlaces(1e-7), decimalPlaces(12), decimalPlaces('0.125'), decimalPlaces('abc'), decimalPlaces(Number.NaN), decimalPlaces(0.1 + 0.2)]).toEqual([3, 1, 7, 0, 3, 0, 0, 1]);
  });
});
