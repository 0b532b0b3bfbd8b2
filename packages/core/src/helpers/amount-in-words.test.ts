import { describe, expect, it } from 'vitest';
import { amountInWords } from './amount-in-words.ts';

describe('amountInWords (spec §5)', () => {
  it.each([
    [1234.56, '壹仟贰佰叁拾肆元伍角陆分'],
    [0, '零元整'],
    [-0, '零元整'],
    [-1234.56, '负壹仟贰佰叁拾肆元伍角陆分'],
    [10.01, '壹拾元零壹分'],
    [100000000, '壹亿元整'],
    [10, '壹拾元整'],
    [1, '壹元整'],
    [0.5, '伍角'],
    [0.05, '伍分'],
    [1.05, '壹元零伍分'],
    [1.5, '壹元伍角'],
    [1005, '壹仟零伍元整'],
    [1010, '壹仟零壹拾元整'],
    [100500, '壹拾万零伍佰元整'],
    [100010000, '壹亿零壹万元整'],
    [100000001, '壹亿零壹元整'],
    [1000000, '壹佰万元整'],
    [12345678.9, '壹仟贰佰叁拾肆万伍仟陆佰柒拾捌元玖角'],
    [9999999999999998, '玖仟玖佰玖拾玖万亿玖仟玖佰玖拾玖亿玖仟玖佰玖拾玖万玖仟玖佰玖拾捌元整'],
    [0.015, '贰分'], // rounds to 2 decimals on the decimal value
    [0.004, '零元整'],
    [0.995, '壹元整'],
    [2.675, '贰元陆角捌分'],
    ['88.8', '捌拾捌元捌角'],
    [-0.5, '负伍角'],
  ])('%s → %s', (value, words) => {
    expect(amountInWords(value)).toBe(words);
  });

  it.each([[Number.NaN], [1e16], [-1e16], [2e20], [Infinity], ['abc'], [''], [null], [undefined]])('%s → empty', (value) => {
    expect(amountInWords(value as number)).toBe('');
  });
});
