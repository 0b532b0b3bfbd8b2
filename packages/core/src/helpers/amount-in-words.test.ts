import { describe, expect, it } from 'vitest';
import { amountInWords, chineseCapitals } from './amount-in-words.ts';

describe('chineseCapitals (spec §5)', () => {
  it.each([
    [1234.56, '壹仟贰佰叁拾肆元伍角陆分'],
    ['1234.50', '壹仟贰佰叁拾肆元伍角整'],
    [0, '零元整'],
    [-0, '零元整'],
    ['0.00', '零元整'],
    [-1234.56, '负壹仟贰佰叁拾肆元伍角陆分'],
    ['-88', '负捌拾捌元整'],
    [10.01, '壹拾元零壹分'],
    [10010.05, '壹万零壹拾元零伍分'],
    [100000000, '壹亿元整'],
    [1000000.1, '壹佰万元壹角整'],
    [10, '壹拾元整'],
    [1, '壹元整'],
    [0.5, '伍角整'],
    [0.05, '伍分'],
    [0.55, '伍角伍分'],
    [1.05, '壹元零伍分'],
    [1.5, '壹元伍角整'],
    [1005, '壹仟零伍元整'],
    [1010, '壹仟零壹拾元整'],
    [100500, '壹拾万零伍佰元整'],
    [100010000, '壹亿零壹万元整'],
    [100000001, '壹亿零壹元整'],
    [1000000, '壹佰万元整'],
    [12345678.9, '壹仟贰佰叁拾肆万伍仟陆佰柒拾捌元玖角整'],
    [9999999999999998, '玖仟玖佰玖拾玖万亿玖仟玖佰玖拾玖亿玖仟玖佰玖拾玖万玖仟玖佰玖拾捌元整'],
    // Decimal text is read exactly: a number this long would lose its cents as a float.
    ['12345678901234.56', '壹拾贰万亿叁仟肆佰伍拾陆亿柒仟捌佰玖拾万壹仟贰佰叁拾肆元伍角陆分'],
    ['1,234.5', '壹仟贰佰叁拾肆元伍角整'],
    ['1e3', '壹仟元整'],
    // Rounding to cents, half away from zero, on the decimal value.
    [0.015, '贰分'],
    [0.004, '零元整'],
    [-0.004, '零元整'],
    [0.995, '壹元整'],
    [2.675, '贰元陆角捌分'],
    ['99.995', '壹佰元整'],
    ['-0.125', '负壹角叁分'],
    [1e-7, '零元整'],
    ['88.8', '捌拾捌元捌角整'],
    [-0.5, '负伍角整'],
  ])('%s → %s', (value, words) => {
    expect(chineseCapitals(value)).toBe(words);
  });

  it.each([[Number.NaN], [1e16], [-1e16], [2e20], [1e21], [Infinity], ['abc'], [''], ['.'], ['1.2.3'], ['9999999999999999.995'], [null], [undefined]])('%s → empty', (value) => {
    expect(chineseCapitals(value as number)).toBe('');
  });

  it('is what the formula function RMB() writes', () => {
    expect(amountInWords(1234.5)).toBe(chineseCapitals('1234.50'));
  });
});
