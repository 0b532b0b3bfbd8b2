import { describe, expect, it } from 'vitest';
import { dataFactoryTexts } from './texts.ts';

/** Leaf keys of a texts tree (`a.b.c`). */
function keysOf(tree: unknown, prefix = ''): string[] {
  if (tree && typeof tree === 'object') return Object.entries(tree).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
  return [prefix];
}

describe('data factory texts', () => {
  it('has the same keys in zh-CN and en-US', () => {
    expect(keysOf(dataFactoryTexts['en-US']).sort()).toEqual(keysOf(dataFactoryTexts['zh-CN']).sort());
  });
});
