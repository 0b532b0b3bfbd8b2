/**
 * A line diff of two texts (the data factory's version diff): the longest common subsequence of
 * their lines, as the lines of both in order — kept, removed (only in `before`) and added (only in
 * `after`), removals before additions where lines changed. The common head and tail are taken off
 * first, so the quadratic table covers only the changed middle; a middle past `MAX_CELLS` table
 * cells is shown as removed-then-added rather than tying up the server.
 */
export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
  /** 1-based line in `before` (null for an added line). */
  oldNumber: number | null;
  /** 1-based line in `after` (null for a removed line). */
  newNumber: number | null;
}

const MAX_CELLS = 4_000_000;

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before === '' ? [] : before.split(/\r?\n/);
  const b = after === '' ? [] : after.split(/\r?\n/);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const out: DiffLine[] = [];
  for (let i = 0; i < head; i++) out.push({ kind: 'same', text: a[i]!, oldNumber: i + 1, newNumber: i + 1 });
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  const n = am.length;
  const m = bm.length;
  const removed = (i: number) => out.push({ kind: 'removed', text: am[i]!, oldNumber: head + i + 1, newNumber: null });
  const added = (j: number) => out.push({ kind: 'added', text: bm[j]!, oldNumber: null, newNumber: head + j + 1 });
  if (n * m > MAX_CELLS) {
    for (let i = 0; i < n; i++) removed(i);
    for (let j = 0; j < m; j++) added(j);
  } else {
    // lcs[i][j]: the longest common subsequence of am[i..] and bm[j..].
    const width = m + 1;
    const lcs = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * width + j] = am[i] === bm[j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && am[i] === bm[j]) {
        out.push({ kind: 'same', text: am[i]!, oldNumber: head + i + 1, newNumber: head + j + 1 });
        i++;
        j++;
      } else if (j >= m || (i < n && lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!)) {
        removed(i++);
      } else {
        added(j++);
      }
    }
  }
  for (let k = tail; k > 0; k--) out.push({ kind: 'same', text: a[a.length - k]!, oldNumber: a.length - k + 1, newNumber: b.length - k + 1 });
  return out;
}
