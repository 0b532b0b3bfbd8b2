import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff.ts';

const kinds = (before: string, after: string) => lineDiff(before, after).map((l) => `${l.kind === 'same' ? ' ' : l.kind === 'added' ? '+' : '-'}${l.text}`);

describe('lineDiff', () => {
  it('keeps what both have and marks what changed, removals first', () => {
    expect(kinds('a\nb\nc', 'a\nB\nc')).toEqual([' a', '-b', '+B', ' c']);
    expect(kinds('a\nc', 'a\nb\nc')).toEqual([' a', '+b', ' c']);
    expect(kinds('a\nb\nc', 'c')).toEqual(['-a', '-b', ' c']);
    expect(kinds('', 'x')).toEqual(['+x']);
    expect(kinds('x', '')).toEqual(['-x']);
    expect(kinds('same', 'same')).toEqual([' same']);
  });

  it('numbers the lines of each side', () => {
    expect(lineDiff('a\nb\nc', 'a\nx\nc\nd')).toEqual([
      { kind: 'same', text: 'a', oldNumber: 1, newNumber: 1 },
      { kind: 'removed', text: 'b', oldNumber: 2, newNumber: null },
      { kind: 'added', text: 'x', oldNumber: null, newNumber: 2 },
      { kind: 'same', text: 'c', oldNumber: 3, newNumber: 3 },
      { kind: 'added', text: 'd', oldNumber: null, newNumber: 4 },
    ]);
  });

  it('finds a longest common subsequence: repeated lines are matched, not all replaced', () => {
    const diff = lineDiff('x\na\ny\na\nz', 'a\nq\na');
    expect(diff.filter((l) => l.kind === 'same').map((l) => l.text)).toEqual(['a', 'a']);
  });

  it('rebuilds both texts from any diff (property)', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'begin', 'end;', ''), { maxLength: 12 });
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const before = a.join('\n');
        const after = b.join('\n');
        const diff = lineDiff(before, after);
        const old = diff.filter((l) => l.kind !== 'added').map((l) => l.text);
        const neu = diff.filter((l) => l.kind !== 'removed').map((l) => l.text);
        expect(old.join('\n')).toBe(before === '' ? '' : before);
        expect(neu.join('\n')).toBe(after === '' ? '' : after);
        expect(old.length).toBe(before === '' ? 0 : a.length);
        expect(diff.filter((l) => l.kind !== 'added').map((l) => l.oldNumber)).toEqual(old.map((_, i) => i + 1));
      }),
    );
  });
});
