import { describe, expect, it } from 'vitest';
import { parseControlValue } from '@tessera/core/controls/registry';
import { parseFilterConditions } from '@tessera/core/filters/index';
import { CORE_MESSAGES, localizeCoreMessage } from '@tessera/core/messages/core-messages';
import '../src/app.ts';
import { cultureOfLanguage, PLATFORM_MESSAGES } from '../src/platform/messages.ts';
import { MESSAGE_TABLES } from '../src/platform/module-messages.ts';

// Issue 12, defect 4: every server text that reaches a user exists in zh-CN (and en-US), and the
// Chinese is a translation, not the English copied. Importing the app registers every module's table.

const CJK = /[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]/;
/** A text with no words to translate (only placeholders, numbers, codes or punctuation). */
const wordless = (s: string) => !/[A-Za-z]{3,}/.test(s.replace(/\{\w+\}/g, ''));

function problemsOf(name: string, texts: Record<string, Record<string, string>>): string[] {
  const zh = texts['zh-CN'] ?? {};
  const en = texts['en-US'] ?? {};
  const problems: string[] = [];
  for (const key of new Set([...Object.keys(zh), ...Object.keys(en)])) {
    const z = zh[key];
    const e = en[key];
    if (!z?.trim()) problems.push(`${name}: ${key} has no zh-CN text`);
    else if (!e?.trim()) problems.push(`${name}: ${key} has no en-US text`);
    else if (!CJK.test(z) && !wordless(z)) problems.push(`${name}: ${key} is not translated into zh-CN ("${z}")`);
    else if (z === e && !wordless(z)) problems.push(`${name}: ${key} is the same in zh-CN and en-US ("${z}")`);
  }
  return problems;
}

describe('the server message catalogue (defect 4)', () => {
  it('holds a zh-CN translation of every platform and module text', () => {
    const names = MESSAGE_TABLES.map((t) => t.name);
    for (const name of ['identity', 'business-data', 'dictionaries', 'localization', 'help', 'pages', 'document-numbers', 'authorization', 'business-menus', 'notifications', 'workflow', 'print-templates']) {
      expect(names, `the ${name} module's table is registered`).toContain(name);
    }
    const problems = [...problemsOf('platform', PLATFORM_MESSAGES), ...MESSAGE_TABLES.flatMap((t) => problemsOf(t.name, t.texts))];
    expect(problems).toEqual([]);
    // The check itself finds a missing, a copied and an untranslated text.
    expect(problemsOf('sample', { 'zh-CN': { a: 'Hello there', b: '', c: '{count}' }, 'en-US': { a: 'Hello there', b: 'Bye', c: '{count}' } })).toEqual([
      'sample: a is not translated into zh-CN ("Hello there")',
      'sample: b has no zh-CN text',
    ]);
  });

  it('answers Chinese and English callers in their language, other languages in English, nobody in Chinese', () => {
    expect(cultureOfLanguage('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh-CN');
    expect(cultureOfLanguage('zh-Hant')).toBe('zh-CN');
    expect(cultureOfLanguage('en-US,en;q=0.9')).toBe('en-US');
    expect(cultureOfLanguage('vi, zh-CN;q=0.5')).toBe('zh-CN');
    expect(cultureOfLanguage('vi')).toBe('en-US');
    expect(cultureOfLanguage('fr-FR')).toBe('en-US');
    expect(cultureOfLanguage('')).toBe('zh-CN');
    expect(cultureOfLanguage('*')).toBe('zh-CN');
  });

  it('holds a Chinese text for every message of the core, with the quoted values kept', () => {
    for (const m of CORE_MESSAGES) {
      expect(CJK.test(m.zh), m.en).toBe(true);
      expect(m.zh.match(/\{\w+\}/g) ?? [], m.en).toEqual(expect.arrayContaining(m.en.match(/\{\w+\}/g) ?? []));
      const sample = m.en.replace(/\{\w+\}/g, 'X1');
      expect(localizeCoreMessage(sample, 'zh-CN'), m.en).toBe(m.zh.replace(/\{\w+\}/g, 'X1'));
      expect(localizeCoreMessage(sample, 'en-US')).toBe(sample);
    }
  });

  it('answers every value a control refuses, and every filter problem, in Chinese', () => {
    const control = (controlType: number) => ({ id: 'c', code: 'C', title: 'C', controlType }) as Parameters<typeof parseControlValue>[0];
    const refused = [
      [1001, { a: 1 }],
      [1002, '1.5'],
      [1002, 'abc'],
      [1003, 'abc'],
      [1004, '05/03/2024'],
      [1004, '0000-01-01'],
      [1005, 'maybe'],
      [1001, 'a\u0000b'],
    ] as const;
    for (const [type, value] of refused) {
      const parsed = parseControlValue(control(type), value);
      expect(parsed.ok, `${type} ${JSON.stringify(value)}`).toBe(false);
      if (!parsed.ok) expect(localizeCoreMessage(parsed.message, 'zh-CN'), parsed.message).toMatch(CJK);
    }
    const fields = [
      { code: 'N', tableFieldType: 2 },
      { code: 'D', tableFieldType: 4 },
      { code: 'T', tableFieldType: 1 },
    ];
    const bad = [
      [{ key: 'N', judgmentMethod: 'eq', value: 'x' }],
      [{ key: 'N', judgmentMethod: 'eq', value: '1.5' }],
      [{ key: 'D', judgmentMethod: 'eq', value: 'yesterday' }],
      [{ key: 'D', judgmentMethod: 'between', value: '2024-01-01' }],
      [{ key: 'Nope', judgmentMethod: 'eq', value: '1' }],
      [{ key: 'T', judgmentMethod: 'nope', value: '1' }],
      [{ key: 'T', judgmentMethod: 'eq', value: '1', leftBracket: '(' }],
      [{ key: 'T', judgmentMethod: 'eq', value: '1', rightBracket: ')' }],
      [{ key: 'T', judgmentMethod: 'eq', value: '1', linkCondition: 'xor' }, { key: 'T', judgmentMethod: 'eq', value: '1', linkCondition: 'xor' }],
    ];
    for (const conditions of bad) {
      const parsed = parseFilterConditions(conditions, fields as never, { now: new Date() });
      expect(parsed.ok, JSON.stringify(conditions)).toBe(false);
      if (!parsed.ok) for (const e of parsed.errors) expect(localizeCoreMessage(e.message, 'zh-CN'), e.message).toMatch(CJK);
    }
  });
});
