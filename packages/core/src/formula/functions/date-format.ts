// Excel date/time format codes for TEXT (yyyy-mm-dd, d mmm yyyy, hh:mm:ss AM/PM…), applied to a
// wall-clock Date (its UTC fields are the calendar fields), so the result never depends on the
// machine's own time zone. formula.js's TEXT ignores the format for dates and prints the UTC day
// of a local Date — the previous day for anyone east of Greenwich.

const TOKEN = /"[^"]*"|\\.|yyyy|yy|mmmmm|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|AM\/PM|A\/P|[\s\S]/gi;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** True when the format (outside quoted text) has date or time codes. */
export function isDateFormat(format: string): boolean {
  return /[ymdhs]/i.test(format.replace(/"[^"]*"|\\./g, ''));
}

export function formatWallDate(d: Date, format: string): string {
  const tokens = format.match(TOKEN) ?? [];
  const lower = tokens.map((t) => t.toLowerCase());
  const twelveHour = lower.some((t) => t === 'am/pm' || t === 'a/p');
  const isCode = (t: string) => /^(y+|m+|d+|h+|s+)$/.test(t);
  // "m"/"mm" right after an hour code or right before a seconds code means minutes.
  const minuteAt = (i: number) => {
    const before = lower.slice(0, i).reverse().find(isCode);
    const after = lower.slice(i + 1).find(isCode);
    return (before !== undefined && before.startsWith('h')) || (after !== undefined && after.startsWith('s'));
  };
  const hours = d.getUTCHours();
  const hour = twelveHour ? hours % 12 || 12 : hours;
  return tokens
    .map((t, i) => {
      switch (lower[i]) {
        case 'yyyy': return pad(d.getUTCFullYear(), 4);
        case 'yy': return pad(d.getUTCFullYear() % 100);
        case 'mmmmm': return MONTHS[d.getUTCMonth()]!.charAt(0);
        case 'mmmm': return MONTHS[d.getUTCMonth()]!;
        case 'mmm': return MONTHS[d.getUTCMonth()]!.slice(0, 3);
        case 'mm': return minuteAt(i) ? pad(d.getUTCMinutes()) : pad(d.getUTCMonth() + 1);
        case 'm': return String(minuteAt(i) ? d.getUTCMinutes() : d.getUTCMonth() + 1);
        case 'dddd': return DAYS[d.getUTCDay()]!;
        case 'ddd': return DAYS[d.getUTCDay()]!.slice(0, 3);
        case 'dd': return pad(d.getUTCDate());
        case 'd': return String(d.getUTCDate());
        case 'hh': return pad(hour);
        case 'h': return String(hour);
        case 'ss': return pad(d.getUTCSeconds());
        case 's': return String(d.getUTCSeconds());
        case 'am/pm': return hours < 12 ? 'AM' : 'PM';
        case 'a/p': return hours < 12 ? 'A' : 'P';
        default:
          if (t.startsWith('"')) return t.slice(1, -1);
          if (t.startsWith('\\')) return t.slice(1);
          return t;
      }
    })
    .join('');
}
