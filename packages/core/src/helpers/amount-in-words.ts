// spec §5: amount in Chinese capitals (人民币大写). Empty for what is not a number and for
// |value| ≥ 1e16; rounds to 2 decimals half away from zero; negatives get 负. An amount without
// 分 ends in 整 (壹元整, 伍角整), as cheques and invoices write it.

const DIGITS = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'];
const UNITS_IN_GROUP = ['', '拾', '佰', '仟'];
const GROUP_UNITS = ['', '万', '亿', '万亿'];
const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/**
 * The decimal text of an amount: a string is read as written (exact, `'12345678901234.56'` keeps its
 * cents), a number at 15 significant digits (Excel's precision, so 0.015 is 0.015, not 0.01499…).
 */
function decimalTextOf(value: number | string | null | undefined): string | null {
  if (typeof value === 'string') {
    const text = value.trim().replace(/,/g, '');
    const m = DECIMAL_TEXT.exec(text);
    if (m && (m[2] || m[3])) return text;
    if (!/^[+-]?\d+(\.\d*)?e[+-]?\d+$/i.test(text)) return null;
    value = Number(text);
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) >= 1e16) return null;
  const abs = Math.abs(value);
  const normalized = abs >= 1e15 ? Math.round(abs) : Number(abs.toPrecision(15));
  // toFixed(20) keeps every digit of a small number written with an exponent (1e-7).
  const text = normalized >= 1e-6 || normalized === 0 ? String(normalized) : normalized.toFixed(20);
  return (value < 0 ? '-' : '') + text;
}

/** Rounds decimal text to cents: [negative, integer digits without leading zeros ('' for 0), cents 0..99]. */
function toYuanAndCents(text: string): [boolean, string, number] {
  const [, sign, intDigits = '', frac = ''] = DECIMAL_TEXT.exec(text)!;
  const padded = frac.padEnd(3, '0');
  let cents = Number(padded.slice(0, 2));
  let yuan = BigInt(intDigits || '0');
  if (Number(padded[2]) >= 5) cents += 1;
  if (cents === 100) {
    cents = 0;
    yuan += 1n;
  }
  return [sign === '-', yuan === 0n ? '' : yuan.toString(), cents];
}

function groupToWords(group: string): string {
  // group: up to 4 digits, most significant first
  let out = '';
  let zeroPending = false;
  const len = group.length;
  for (let i = 0; i < len; i++) {
    const d = Number(group[i]);
    const unit = UNITS_IN_GROUP[len - 1 - i];
    if (d === 0) zeroPending = out !== '';
    else {
      if (zeroPending) out += '零';
      out += DIGITS[d] + unit;
      zeroPending = false;
    }
  }
  return out;
}

function integerToWords(digits: string): string {
  if (!digits) return '';
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= 4) groups.unshift(digits.slice(Math.max(0, end - 4), end));
  let out = '';
  let zeroPending = false;
  groups.forEach((group, i) => {
    const unit = GROUP_UNITS[groups.length - 1 - i];
    if (/^0+$/.test(group)) {
      if (out) zeroPending = true;
      return;
    }
    // A group below 1000 after a non-empty higher part reads with a leading 零 (壹万零伍佰).
    if (out && (zeroPending || group.padStart(4, '0')[0] === '0')) out += '零';
    out += groupToWords(String(Number(group))) + unit;
    zeroPending = false;
  });
  return out;
}

/**
 * 1234.5 → 壹仟贰佰叁拾肆元伍角整; 0 → 零元整; -5 → 负伍元整; 10.01 → 壹拾元零壹分; 0.05 → 伍分.
 * Takes numbers or decimal text (thousands separators allowed); '' for anything else.
 */
export function chineseCapitals(amount: number | string | null | undefined): string {
  const text = decimalTextOf(amount);
  if (text === null) return '';
  const [negative, yuan, cents] = toYuanAndCents(text);
  if (yuan.length > 16) return '';
  const jiao = Math.floor(cents / 10);
  const fen = cents % 10;
  const intWords = integerToWords(yuan);
  if (!intWords && cents === 0) return '零元整';
  let out = intWords ? `${intWords}元` : '';
  if (jiao > 0) out += `${DIGITS[jiao]}角`;
  else if (intWords && fen > 0) out += '零';
  out += fen > 0 ? `${DIGITS[fen]}分` : '整';
  return (negative ? '负' : '') + out;
}

/** The formula function RMB(amount) (spec §5): the same words as the currency control shows. */
export const amountInWords = chineseCapitals;
