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

  it('names every kind; product names the same way in both languages, the product’s own database in each', () => {
    expect(Object.keys(dataSourceTexts['zh-CN'].kinds).sort()).toEqual([...DATA_SOURCE_KINDS].sort());
    const { own: zhOwn, ...zhProducts } = dataSourceTexts['zh-CN'].kinds;
    const { own: enOwn, ...enProducts } = dataSourceTexts['en-US'].kinds;
    expect(enProducts).toEqual(zhProducts);
    expect([zhOwn, enOwn]).toEqual(['本系统数据库', 'This product’s database']);
  });
});
