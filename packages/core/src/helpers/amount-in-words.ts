// spec §5: amount in Chinese capitals (人民币大写). Empty for NaN and for |value| ≥ 1e16; rounds
// to 2 decimals (half away from zero, on the decimal text so 0.015 → 0.02); negatives get 负.

const DIGITS = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'];
const UNITS_IN_GROUP = ['', '拾', '佰', '仟'];
const GROUP_UNITS = ['', '万', '亿', '万亿'];

/** Rounds |value| to cents exactly, returning [integer digits, cents 0..99]. */
function toYuanAndCents(abs: number): [string, number] {
  // Round on the shortest decimal text of the value at 15 significant digits (Excel's precision),
  // so 0.015 rounds up although its binary value is 0.01499…
  const normalized = abs >= 1e15 ? Math.round(abs) : Number(abs.toPrecision(15));
  if (normalized < 1e-6) return ['0', 0];
  const [intPart, rawFrac = ''] = String(normalized).split('.');
  const frac = rawFrac.padEnd(3, '0');
  let cents = Number(frac.slice(0, 2));
  let yuan = BigInt(intPart);
  if (Number(frac[2]) >= 5) cents += 1;
  if (cents === 100) {
    cents = 0;
    yuan += 1n;
  }
  return [yuan.toString(), cents];
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
  if (/^0+$/.test(digits)) return '';
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

/** 1234.56 → 壹仟贰佰叁拾肆元伍角陆分; 0 → 零元整; -5 → 负伍元整; 10.01 → 壹拾元零壹分. */
export function amountInWords(value: number | string | null | undefined): string {
  const n = typeof value === 'string' ? (value.trim() === '' ? Number.NaN : Number(value)) : Number(value ?? Number.NaN);
  if (!Number.isFinite(n) || Math.abs(n) >= 1e16) return '';
  const [yuan, cents] = toYuanAndCents(Math.abs(n));
  const jiao = Math.floor(cents / 10);
  const fen = cents % 10;
  const intWords = integerToWords(yuan);
  if (!intWords && cents === 0) return '零元整';
  let out = intWords ? `${intWords}元` : '';
  if (cents === 0) out += '整';
  else {
    if (jiao > 0) out += `${DIGITS[jiao]}角`;
    else if (intWords) out += '零';
    if (fen > 0) out += `${DIGITS[fen]}分`;
  }
  return (n < 0 ? '负' : '') + out;
}
