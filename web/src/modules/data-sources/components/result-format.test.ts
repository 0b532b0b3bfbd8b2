import type { TDataSourceQueryResult } from '@tessera/core/contracts/data-sources';
import { describe, expect, it } from 'vitest';
import { cellText, columnWidth, statusLine } from './result-format.ts';

describe('cellText', () => {
  it.each([
    [null, null],
    [undefined, null],
    ['text', 'text'],
    ['', ''],
    [42, '42'],
    [0, '0'],
    [true, 'true'],
    [false, 'false'],
    ['12345678901234567890', '12345678901234567890'],
    [{ a: 1, b: [true, null] }, '{"a":1,"b":[true,null]}'],
    [[1, 2], '[1,2]'],
  ])('%j → %j', (value, text) => {
    expect(cellText(value)).toBe(text);
  });
});

describe('columnWidth', () => {
  it('grows with the name between bounds', () => {
    expect(columnWidth('id')).toBe(96);
    expect(columnWidth('customer_name')).toBe(13 * 9 + 48);
    expect(columnWidth('x'.repeat(200))).toBe(320);
  });
});

describe('statusLine', () => {
  // A stand-in for i18next with the zh-CN texts.
  const texts: Record<string, string> = {
    'result.rows': '{{count}} 行',
    'result.elapsed': '{{ms}} ms',
    'result.truncated': '（已截断，仅显示前 {{count}} 行）',
    'result.affected': '影响 {{count}} 行',
    'result.cached': '（缓存）',
  };
  const t = (key: string, options: Record<string, unknown> = {}) => texts[key]!.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(options[k]));
  const base: TDataSourceQueryResult = { columns: [{ name: 'answer', dataType: 'int' }], rows: [{ answer: 42 }], rowCount: 1, truncated: false, affectedRows: null, elapsedMs: 3.4, cached: false };

  it('counts rows and time', () => {
    expect(statusLine(base, t)).toBe('1 行 · 3 ms');
  });

  it('says when the row cap cut the answer', () => {
    expect(statusLine({ ...base, rowCount: 1000, truncated: true, elapsedMs: 120.6 }, t)).toBe('1000 行 · 121 ms（已截断，仅显示前 1000 行）');
  });

  it('counts the rows a write changed', () => {
    expect(statusLine({ ...base, columns: [], rows: [], rowCount: 0, affectedRows: 3, elapsedMs: 8 }, t)).toBe('影响 3 行 · 8 ms');
  });

  it('shows rows of a write that returns them', () => {
    expect(statusLine({ ...base, affectedRows: 1 }, t)).toBe('1 行 · 3 ms');
  });

  it('says when a saved query’s answer came from its cache', () => {
    expect(statusLine({ ...base, cached: true }, t)).toBe('1 行 · 3 ms（缓存）');
    expect(statusLine({ ...base, rowCount: 1000, truncated: true, cached: true }, t)).toBe('1000 行 · 3 ms（已截断，仅显示前 1000 行）（缓存）');
  });
});
