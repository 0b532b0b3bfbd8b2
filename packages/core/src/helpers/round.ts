// Excel-compatible decimal rounding: half away from zero, decided on the value's 15-significant-digit
// decimal form so ROUND(1.005, 2) is 1.01 (as in Excel) although 1.005 is stored as 1.00499…

/** Rounds `value` to `digits` decimals (negative digits round to tens, hundreds…). */
export function roundHalfAwayFromZero(value: number, digits = 0): number {
  if (!Number.isFinite(value)) return value;
  const d = Math.trunc(digits);
  if (d > 15 || d < -15) return d > 0 ? value : 0;
  const sign = value < 0 ? -1 : 1;
  const abs = Math.abs(value);
  const factor = 10 ** Math.abs(d);
  const scaled = d >= 0 ? abs * factor : abs / factor;
  // Only a value within binary noise of a half needs the (slow) 15-significant-digit cleaning
  // that decides it the way Excel does; everything else rounds directly.
  const floor = Math.floor(scaled);
  const nearHalf = Math.abs(scaled - floor - 0.5) < 1e-6;
  const cleaned = nearHalf && scaled < 1e15 ? Number(scaled.toPrecision(15)) : scaled;
  const rounded = Math.floor(cleaned + 0.5);
  const result = d >= 0 ? rounded / factor : rounded * factor;
  return sign * result || 0;
}

/** Fixed-decimal text of a rounded number (`1234.5`, 2 → `1234.50`). */
export function toFixedHalfAwayFromZero(value: number, digits: number): string {
  const d = Math.max(0, Math.min(15, Math.trunc(digits)));
  return roundHalfAwayFromZero(value, d).toFixed(d);
}

/**
 * Decimal places a number needs (trailing zeros do not count): `2.555` → 3, `'1,234.50'` → 1, `1e-7` → 7; 0 for whole
 * numbers and for what is not a number.
 */
export function decimalPlaces(value: number | string): number {
  // A number is read at 15 significant digits, as Excel shows it (0.1 + 0.2 has one decimal, not 17).
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(Number(value.toPrecision(15))) : '') : value.trim();
  const m = /^[+-]?[\d,]*(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return 0;
  const fraction = (m[1] ?? '').replace(/0+$/, '').length;
  return Math.max(0, fraction - Number(m[2] ?? 0));
}
