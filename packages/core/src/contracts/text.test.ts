import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseControlValue, validateControlValue } from '../controls/registry.ts';
import { MAX_PAGE_CONTROLS, MAX_VIEW_DEPTH, ZPageDefinition, type TView } from '../page-definition.ts';
import { ZLoginInput } from './auth.ts';
import { ZSavePageInput, ZViewPreferencesInput } from './business-data.ts';
import { ZLocalizedText } from './authorization.ts';
import { ZCreatePageDefinitionInput } from './pages.ts';
import { DEPTH_RULE_MESSAGE, findTextIssues, isWellFormedText, MAX_INPUT_DEPTH, TEXT_RULE_MESSAGE, zJson, zText } from './text.ts';

const BAD = ['\u0000', 'a\u0000b', '\ud800', 'a\ud800', '\udc00', '\udfff x', 'x\ud83d', '\ude00\ud83d'];
const GOOD = ['', 'abc', '中文', '😀', 'a😀b', '\uFFFD', '\uE000', 'tab\tnew\nline', '\u0001'];

describe('the text rule', () => {
  it('refuses NUL and unpaired surrogates, accepts everything else', () => {
    for (const s of BAD) expect(isWellFormedText(s), JSON.stringify(s)).toBe(false);
    for (const s of GOOD) expect(isWellFormedText(s), JSON.stringify(s)).toBe(true);
  });

  it('agrees with String.prototype.isWellFormed apart from NUL', () => {
    for (let a = 0xd7f0; a < 0xe010; a += 7) {
      for (const b of [0x41, 0xd83d, 0xde00, 0xdbff, 0xdc00]) {
        const s = String.fromCharCode(a, b);
        expect(isWellFormedText(s)).toBe((s as unknown as { isWellFormed(): boolean }).isWellFormed());
      }
    }
  });

  it('zText() carries the rule and still chains', () => {
    const schema = zText().trim().min(1).max(5);
    expect(schema.parse(' ab ')).toBe('ab');
    const r = schema.safeParse('a\u0000');
    expect(!r.success && r.error.issues[0]?.message).toBe(TEXT_RULE_MESSAGE);
    expect(schema.safeParse('toolong').success).toBe(false);
  });

  it('zJson() walks values and keys and names the path', () => {
    const r = z.object({ v: zJson() }).safeParse({ v: { list: [1, 'ok', { deep: 'x\ud800' }], ['k\u0000']: 1 } });
    expect(r.success).toBe(false);
    const paths = !r.success ? r.error.issues.map((i) => i.path.join('.')) : [];
    expect(paths.sort()).toEqual(['v.k\u0000', 'v.list.2.deep']);
    expect(zJson().safeParse({ a: ['😀', { b: null, c: 2 }] }).success).toBe(true);
  });

  it('the walk is iterative and bounded: 100,000 levels are one depth issue', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const issues = findTextIssues(deep);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ kind: 'depth' });
    expect(issues[0]!.path).toHaveLength(MAX_INPUT_DEPTH);
    const r = zJson().safeParse(deep);
    expect(!r.success && r.error.issues[0]?.message).toBe(DEPTH_RULE_MESSAGE);
  });

  it('is part of the contracts: sign-in, localized texts, records, preferences, designs', () => {
    const login = ZLoginInput.safeParse({ username: 'a\u0000', password: 'x' });
    expect(!login.success && login.error.issues.map((i) => i.path.join('.'))).toEqual(['username']);
    expect(ZLocalizedText.safeParse({ 'en-US': 'x\ud800' }).success).toBe(false);
    const save = ZSavePageInput.safeParse({ pageId: 'P', viewDataList: [{ viewId: 'v', dataList: [{ Name: 'a\u0000' }] }] });
    expect(!save.success && save.error.issues.map((i) => i.path.join('.'))).toEqual(['viewDataList.0.dataList.0.Name']);
    expect(ZViewPreferencesInput.safeParse({ pageId: 'P', viewId: 'v', value: { a: [{ b: '\udc00' }] } }).success).toBe(false);
    const page = ZCreatePageDefinitionInput.safeParse({
      code: 'P',
      name: { 'en-US': 'p' },
      definition: { viewControls: [{ id: 'a', code: 'V', dataControls: [{ id: 'c', code: 'C', controlType: 1001, extraProperties: { hint: 'x\u0000' } }] }] },
    });
    expect(!page.success && page.error.issues.map((i) => i.path.join('.'))).toContain('definition.viewControls.0.dataControls.0.extraProperties.hint');
  });

  it('record values of every kind refuse ill-formed text', () => {
    const control = (controlType: number) => ({ id: 'c', code: 'C', title: 'C', controlType, isDisplayed: true, isEdit: true });
    expect(parseControlValue(control(1001), 'a\u0000')).toEqual({ ok: false, message: TEXT_RULE_MESSAGE });
    expect(parseControlValue(control(1008), ['a', 'b\ud800'])).toEqual({ ok: false, message: TEXT_RULE_MESSAGE });
    // Ill-formed text produced by parsing (JSON escapes inside a list's text) is refused too.
    expect(parseControlValue(control(1008), '["a","\\u0000"]')).toEqual({ ok: false, message: TEXT_RULE_MESSAGE });
    expect(parseControlValue(control(1001), '中文😀')).toEqual({ ok: true, value: '中文😀' });
    expect(validateControlValue(control(1001), 'x\udc00')).toBe(TEXT_RULE_MESSAGE);
    expect(validateControlValue(control(1001), 'x')).toBeNull();
  });
});

describe('page design caps', () => {
  const nested = (depth: number): TView => {
    let view: TView = { id: `v${depth}`, code: `V${depth}`, title: '', dataControls: [], viewButtons: [], viewControls: [] };
    for (let level = depth - 1; level >= 1; level--) view = { id: `v${level}`, code: `V${level}`, title: '', dataControls: [], viewButtons: [], viewControls: [view] };
    return view;
  };
  it(`views nest at most ${MAX_VIEW_DEPTH} levels, without recursing into deeper input`, () => {
    expect(ZPageDefinition.safeParse({ viewControls: [nested(MAX_VIEW_DEPTH)] }).success).toBe(true);
    const over = ZPageDefinition.safeParse({ viewControls: [nested(MAX_VIEW_DEPTH + 1)] });
    expect(!over.success && over.error.issues[0]?.path.join('.')).toBe(`viewControls.0${'.viewControls.0'.repeat(MAX_VIEW_DEPTH - 1)}.viewControls`);
    expect(ZPageDefinition.safeParse({ viewControls: [nested(20_000)] }).success).toBe(false);
  });
  it(`at most ${MAX_PAGE_CONTROLS} controls on a page`, () => {
    const controls = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, code: `${prefix}${i}`, controlType: 1001 }));
    const page = (a: number, b: number) => ({ viewControls: [{ id: 'a', code: 'A', dataControls: controls(a, 'A') }, { id: 'b', code: 'B', dataControls: controls(b, 'B') }] });
    expect(ZPageDefinition.safeParse(page(1000, 1000)).success).toBe(true);
    const over = ZPageDefinition.safeParse(page(1000, 1001));
    expect(!over.success && over.error.issues[0]).toMatchObject({ path: ['viewControls'], message: `at most ${MAX_PAGE_CONTROLS} controls on a page` });
  });
});
