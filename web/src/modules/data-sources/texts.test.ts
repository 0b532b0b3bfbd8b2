import { describe, expect, it } from 'vitest';
import { DATA_SOURCE_KINDS } from '@tessera/core/contracts/data-sources';
import { dataSourceTexts } from './texts.ts';

/** Leaf keys of a texts tree (`a.b.c`); plural forms (`rows_one`, `rows_other`) count as their key. */
function keysOf(tree: unknown, prefix = ''): string[] {
  if (tree && typeof tree === 'object') return Object.entries(tree).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
  return [prefix.replace(/_(zero|one|two|few|many|other)$/, '')];
}

describe('data source texts', () => {
  it('has the same keys in zh-CN and en-US', () => {
    const zh = [...new Set(keysOf(dataSourceTexts['zh-CN']))].sort();
    const en = [...new Set(keysOf(dataSourceTexts['en-US']))].sort();
    expect(en).toEqual(zh);
  });

  it('names every kind, the same way in both languages', () => {
    expect(Object.keys(dataSourceTexts['zh-CN'].kinds).sort()).toEqual([...DATA_SOURCE_KINDS].sort());
    expect(dataSourceTexts['en-US'].kinds).toEqual(dataSourceTexts['zh-CN'].kinds);
  });
});
