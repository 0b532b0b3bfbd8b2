import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';

// Every UI text exists in zh-CN and en-US: each texts file a module registers
// (`registerTexts(namespace, { 'zh-CN': …, 'en-US': … })`) has the same keys in both languages.

const registered: { namespace: string; file: string; texts: Record<string, Record<string, unknown>> }[] = [];
let current = '';
vi.mock('./i18n.ts', () => ({
  registerTexts: (namespace: string, texts: Record<string, Record<string, unknown>>) => registered.push({ namespace, file: current, texts }),
}));

const webSrc = fileURLToPath(new URL('../../', import.meta.url));
function textsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return textsFiles(path);
    // Plain texts modules (components that register texts beside their markup are left to the journeys).
    return /\.ts$/.test(name) && !name.endsWith('.test.ts') && !path.endsWith(join('i18n', 'i18n.ts')) && readFileSync(path, 'utf8').includes('registerTexts(') ? [path] : [];
  });
}

/** Leaf keys of a texts tree (`a.b.c`); plural forms (`count_one`, `count_other`) count as their key. */
function keysOf(tree: unknown, prefix = ''): string[] {
  if (tree && typeof tree === 'object' && !Array.isArray(tree)) return Object.entries(tree).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
  return [prefix.replace(/_(zero|one|two|few|many|other)$/, '')];
}

describe('UI texts', () => {
  it('every registered texts file has the same keys in zh-CN and en-US', async () => {
    const files = textsFiles(webSrc);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      current = relative(webSrc, file);
      await import(file);
    }
    const { commonTexts } = await import('./common-texts.ts');
    registered.push({ namespace: 'common', file: 'shared/i18n/common-texts.ts', texts: commonTexts as never });
    const problems: string[] = [];
    for (const { namespace, file, texts } of registered) {
      const zh = new Set(keysOf(texts['zh-CN']));
      const en = new Set(keysOf(texts['en-US']));
      for (const k of zh) if (!en.has(k)) problems.push(`${file} (${namespace}): en-US lacks ${k}`);
      for (const k of en) if (!zh.has(k)) problems.push(`${file} (${namespace}): zh-CN lacks ${k}`);
    }
    expect(problems).toEqual([]);
  });
});
