import { describe, expect, it } from 'vitest';
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

  it('names the kinds the same way in both languages', () => {
    expect(dataSourceTexts['zh-CN'].kinds).toEqual({ postgres: 'PostgreSQL', mysql: 'MySQL / MariaDB' });
  });
});
