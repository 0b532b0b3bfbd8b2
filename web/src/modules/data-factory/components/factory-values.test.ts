import { describe, expect, it } from 'vitest';
import { textOfValue, valueFromText } from './factory-values.ts';

describe('parameter values from text boxes', () => {
  it('parses what each type takes and says what it does not', () => {
    expect(valueFromText('integer', ' 42 ')).toEqual({ ok: true, value: 42 });
    expect(valueFromText('integer', '1.5')).toEqual({ ok: false, value: 1.5 });
    expect(valueFromText('integer', '1; drop')).toEqual({ ok: false, value: '1; drop' });
    expect(valueFromText('numeric', '12.50')).toEqual({ ok: true, value: '12.50' });
    expect(valueFromText('boolean', 'true')).toEqual({ ok: true, value: true });
    expect(valueFromText('boolean', 'yes').ok).toBe(false);
    expect(valueFromText('date', '2026-02-30').ok).toBe(false);
    expect(valueFromText('date', '2026-02-28')).toEqual({ ok: true, value: '2026-02-28' });
    expect(valueFromText('jsonb', '[1, "a"]')).toEqual({ ok: true, value: [1, 'a'] });
    expect(valueFromText('jsonb', '[1,').ok).toBe(false);
    expect(valueFromText('text', "  it's ")).toEqual({ ok: true, value: "  it's " });
    expect(valueFromText('text', '')).toEqual({ ok: true, value: null });
  });

  it('shows values back as text', () => {
    expect([textOfValue(null), textOfValue(3), textOfValue('x'), textOfValue([1])]).toEqual(['', '3', 'x', '[1]']);
  });
});
