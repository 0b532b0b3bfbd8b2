import { describe, expect, it } from 'vitest';
import type { TDataControl } from '../page-definition.ts';
import {
  ControlTypeId, excelNumberFormatOf, filterOperatorsForControl, formatControlValue, formatNumberForControl, getControlType, numberAccuracyOf,
  parseControlValue, plainTextToRichText, richTextToPlain, validateControlValue,
} from './registry.ts';

// Issue 12: multi-line text (1011), rich text (1012), currency amount (1015), and the one number format.

const control = (controlType: number, extraProperties: TDataControl['extraProperties'] = {}): TDataControl => ({
  id: `c${controlType}`, code: `f${controlType}`, title: '', controlType, isDisplayed: true, isEdit: true, extraProperties,
});

describe('multi-line text (1011)', () => {
  const c = control(ControlTypeId.MultilineText);
  it('keeps line breaks and is text for filters', () => {
    expect(parseControlValue(c, 'line 1\nline 2')).toEqual({ ok: true, value: 'line 1\nline 2' });
    expect(formatControlValue(c, 'a\nb')).toBe('a\nb');
    expect(getControlType(c.controlType).multiline).toBe(true);
    expect(filterOperatorsForControl(c).map((o) => o.code)).toContain('contains');
  });
  it('refuses more than 100,000 characters with a catalogue message', () => {
    expect(validateControlValue(c, 'x'.repeat(100_001))).toBe('Expected text of at most 100000 characters');
    expect(validateControlValue(c, 'x'.repeat(100_000))).toBeNull();
  });
});

describe('rich text (1012)', () => {
  const c = control(ControlTypeId.RichText);
  it('is shown as plain text outside the editor', () => {
    expect(formatControlValue(c, '<p><strong>Bold</strong> &amp; <em>more</em></p><p>Line&nbsp;2<br>end</p>')).toBe('Bold & more\nLine 2\nend');
    expect(formatControlValue(c, '<p>a</p><script>alert(1)</script><ul><li>x</li><li>y</li></ul>')).toBe('a\nx\ny');
    expect(richTextToPlain('&lt;b&gt; &#39;q&#x27; &#0; &bogus;')).toBe("<b> 'q' &#0; &bogus;");
    expect(richTextToPlain(null)).toBe('');
  });
  it('turns imported plain text into escaped paragraphs', () => {
    expect(plainTextToRichText('a < b & c\r\n\n<script>x</script>')).toBe('<p>a &lt; b &amp; c</p><p></p><p>&lt;script&gt;x&lt;/script&gt;</p>');
    expect(plainTextToRichText('  ')).toBe('');
    expect(getControlType(c.controlType).fromCell?.('x')).toBe('<p>x</p>');
    expect(richTextToPlain(plainTextToRichText('one\ntwo <i>'))).toBe('one\ntwo <i>');
  });
  it('holds at most 200,000 characters', () => {
    expect(validateControlValue(c, 'x'.repeat(200_001))).toBe('Expected text of at most 200000 characters');
    expect(validateControlValue(c, 'x'.repeat(200_000))).toBeNull();
    expect(getControlType(c.controlType).html).toBe(true);
  });
});

describe('currency amount (1015)', () => {
  it('is a decimal of 2 places unless the designer sets others', () => {
    expect(getControlType(ControlTypeId.Currency).tableFieldType).toBe(3);
    expect(numberAccuracyOf(control(ControlTypeId.Currency))).toBe(2);
    expect(numberAccuracyOf(control(ControlTypeId.Currency, { accuracy: 0 }))).toBe(0);
    expect(parseControlValue(control(ControlTypeId.Currency), '1,234.555')).toEqual({ ok: true, value: 1234.56 });
    expect(parseControlValue(control(ControlTypeId.Currency), 'abc')).toEqual({ ok: false, message: 'Expected a number' });
    expect(formatControlValue(control(ControlTypeId.Currency), 1234.5)).toBe('1,234.50');
    expect(formatControlValue(control(ControlTypeId.Currency, { accuracy: 3 }), '-1234567.5')).toBe('-1,234,567.500');
    expect(filterOperatorsForControl(control(ControlTypeId.Currency)).map((o) => o.code)).toContain('between');
  });
});

describe('one number format for lists, forms, grids and Excel', () => {
  it.each([
    [ControlTypeId.Integer, {}, 1234567, '1,234,567', '#,##0'],
    [ControlTypeId.Integer, {}, -1000, '-1,000', '#,##0'],
    [ControlTypeId.Integer, {}, 999, '999', '#,##0'],
    [ControlTypeId.Decimal, { accuracy: 2 }, 1234.5, '1,234.50', '#,##0.00'],
    [ControlTypeId.Decimal, { accuracy: 0 }, 1234.5, '1,235', '#,##0'],
    [ControlTypeId.Decimal, { accuracy: 4 }, 0.1 + 0.2, '0.3000', '#,##0.0000'],
    [ControlTypeId.Decimal, {}, 1234.125, '1,234.125', '#,##0.000'],
    [ControlTypeId.Decimal, {}, 0.1 + 0.2, '0.3', '#,##0.0'],
    [ControlTypeId.Decimal, {}, 1e-7, '0.0000001', '#,##0.0000000'],
    [ControlTypeId.Decimal, {}, 5, '5', '#,##0'],
    [ControlTypeId.Currency, {}, 1000000, '1,000,000.00', '#,##0.00'],
    [ControlTypeId.Currency, {}, -0.5, '-0.50', '#,##0.00'],
  ])('%s %j: %s → %s (Excel %s)', (type, extra, value, text, numFmt) => {
    const c = control(type, extra as TDataControl['extraProperties']);
    expect(formatNumberForControl(c, value)).toBe(text);
    // formatControlValue (summaries, history) writes numbers the same way.
    expect(formatControlValue(c, value)).toBe(text);
    expect(formatNumberForControl(c, String(value))).toBe(text);
    expect(excelNumberFormatOf(c, value)).toBe(numFmt);
  });
  it('writes nothing for what is not a number, and has no accuracy for other controls', () => {
    expect(formatNumberForControl(control(ControlTypeId.Decimal), '')).toBe('');
    expect(formatNumberForControl(control(ControlTypeId.Decimal), 'x')).toBe('');
    expect(formatNumberForControl(control(ControlTypeId.Decimal), null)).toBe('');
    expect(numberAccuracyOf(control(ControlTypeId.Text))).toBeNull();
    expect(numberAccuracyOf(control(ControlTypeId.Decimal))).toBeNull();
  });
});
