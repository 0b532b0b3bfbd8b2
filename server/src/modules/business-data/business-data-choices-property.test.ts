import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { bizPermission } from '@tessera/core/contracts/permissions';
import type { TDataControl } from '@tessera/core/page-definition';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant, pageWorkCodes } from '../../../test/access-fixtures.ts';
import { BD, bd, createDictionary, importWorkbook, newId, publishPage } from '../../../test/business-data-fixtures.ts';
import { control, view } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { bizTable, bizTableName } from '../pages/index.ts';

// Issue 12 property: for random designs with dictionary, option-list and lookup controls and random
// values — valid, unknown, disabled, blank, labels in either language, lookup rows the writer may
// or may not see — every value written by save-page or the Excel import is either valid (and then
// stored as its code / id) or refused with a 400 in the caller's language naming exactly the bad
// fields (and rows); nothing invalid is ever stored, read back from the database.

let t: TestApp;
let admin: string;
let clerk: string;
const source: Record<'mine' | 'theirs' | 'gone', string> = { mine: '', theirs: '', gone: '' };
let sourceViewId: string;

// A deterministic generator so a failure can be replayed.
let seed = 20261125;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
const chance = (p: number) => rand() < p;
const DESIGNS = 8;

const ITEMS = [
  { code: 'K1', zh: '甲', en: 'One', enabled: true },
  { code: 'K2', zh: '乙', en: 'Two', enabled: true },
  { code: 'K3', zh: '丙', en: 'Three', enabled: false },
  { code: 'K4', zh: '丁', en: 'Four', enabled: true },
];
const LIST = [{ label: 'Small', value: 's' }, { label: 'Large', value: 'l' }];

type Kind = 'dict' | 'dictMulti' | 'list' | 'listMulti' | 'lookup';
const KINDS: Kind[] = ['dict', 'dictMulti', 'list', 'listMulti', 'lookup'];
const controlOf = (kind: Kind, code: string): TDataControl => {
  switch (kind) {
    case 'dict': return control(code, 1006, { options: { dictionaryCode: 'PropDict' } });
    case 'dictMulti': return control(code, 1008, { options: { dictionaryCode: 'PropDict' } });
    case 'list': return control(code, 1006, { options: LIST });
    case 'listMulti': return control(code, 1008, { options: LIST });
    case 'lookup': return control(code, 1010, { extraProperties: { dataSourceId: sourceViewId, dataSourceTitle: 'Title' } });
  }
};

/** One value of a field: what is sent (API value, or the cell text of an import), what must be stored, whether it is allowed. */
interface Sample { sent: unknown; cell: unknown; stored: unknown; ok: boolean }
const BLANK = { single: { sent: '', cell: '', stored: '', ok: true }, multi: { sent: [], cell: '', stored: [], ok: true }, lookup: { sent: null, cell: '', stored: null, ok: true } };

function sampleOne(kind: 'dict' | 'list'): { sent: string; cell: string; ok: boolean; code: string } {
  if (kind === 'dict') {
    const roll = rand();
    if (roll < 0.08) return { sent: 'NOT-A-CODE', cell: pick(['NOT-A-CODE', '戊', 'Five']), ok: false, code: 'NOT-A-CODE' };
    const item = pick(ITEMS);
    return { sent: item.code, cell: pick([item.code, item.zh, item.en]), ok: item.enabled, code: item.code };
  }
  if (chance(0.1)) return { sent: 'x', cell: pick(['x', 'Medium']), ok: false, code: 'x' };
  const o = pick(LIST);
  return { sent: o.value, cell: pick([o.value, o.label]), ok: true, code: o.value };
}

function sample(kind: Kind): Sample {
  if (chance(0.15)) return kind === 'lookup' ? BLANK.lookup : kind.endsWith('Multi') ? BLANK.multi : BLANK.single;
  if (kind === 'lookup') {
    const roll = rand();
    if (roll < 0.6) return { sent: source.mine, cell: pick([source.mine, 'Alpha']), stored: source.mine, ok: true };
    if (roll < 0.7) return { sent: source.theirs, cell: pick([source.theirs, 'Beta']), stored: null, ok: false };
    if (roll < 0.8) return { sent: source.gone, cell: pick([source.gone, 'Gone']), stored: null, ok: false };
    if (roll < 0.9) { const id = newId(); return { sent: id, cell: id, stored: null, ok: false }; }
    return { sent: 'garbage', cell: 'garbage', stored: null, ok: false };
  }
  const base = kind.startsWith('dict') ? 'dict' : 'list';
  if (!kind.endsWith('Multi')) {
    const one = sampleOne(base);
    return { sent: one.sent, cell: one.cell, stored: one.code, ok: one.ok };
  }
  const parts = Array.from({ length: 1 + Math.floor(rand() * 2) }, () => sampleOne(base));
  return { sent: parts.map((p) => p.sent), cell: parts.map((p) => p.cell).join(', '), stored: parts.map((p) => p.code), ok: parts.every((p) => p.ok) };
}

const columnValue = (kind: Kind, raw: unknown): unknown => {
  if (kind === 'lookup') return raw === null || raw === undefined ? null : typeof raw === 'string' ? raw : JSON.stringify(raw).replace(/^"|"$/g, '');
  if (kind.endsWith('Multi')) return typeof raw === 'string' && raw ? JSON.parse(raw) : [];
  return raw ?? '';
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  await createDictionary(t, admin, { code: 'PropDict', title: { 'en-US': 'Prop' }, items: ITEMS.map((i) => ({ code: i.code, label: { 'zh-CN': i.zh, 'en-US': i.en }, isEnabled: i.enabled })) });
  const src = view('Src', [control('Title', 1001)]);
  sourceViewId = src.id;
  const srcPageId = await publishPage(t, admin, 'PropSrc', { viewControls: [src], pageButtons: [], dataLinkages: [] });
  const db = t.database.db;
  const role = await createRole(db, 'prop');
  await grant(db, 'R', role, [...pageWorkCodes('PropSrc'), bizPermission.fieldEdit('PropSrc', 'Title')]);
  // The designs' pages (published in the test) are granted before anyone signs in.
  for (let design = 0; design < DESIGNS; design++) {
    const code = `Prop${design}`;
    await grant(db, 'R', role, [...pageWorkCodes(code), ...['Name', 'F0', 'F1', 'F2', 'F3'].map((f) => bizPermission.fieldEdit(code, f))]);
  }
  const scope = await t.call(admin, { method: 'PUT', url: `/api/app/data-scopes?roleId=${role}`, payload: { items: [{ pageKey: 'PropSrc', scope: 'own', customFilter: null }] } });
  expect(scope.statusCode, scope.body).toBe(200);
  await createUser(db, 'clerk', { roles: [role] });
  await createUser(db, 'other', { roles: [role] });
  clerk = await t.login('clerk', FIXTURE_PASSWORD);
  const other = await t.login('other', FIXTURE_PASSWORD);
  const add = async (token: string, title: string) => {
    const id = newId();
    await bd(t, token, 'save-page', { pageId: srcPageId, viewDataList: [{ viewId: src.id, dataList: [{ Id: id, Title: title }] }] });
    return id;
  };
  source.mine = await add(clerk, 'Alpha');
  source.theirs = await add(other, 'Beta');
  source.gone = await add(clerk, 'Gone');
  await bd(t, clerk, 'delete-data', { pageId: srcPageId, ids: [source.gone] });
});
afterAll(() => t.close());

describe('property: what save-page and the import store is always allowed', () => {
  it('random designs × random values: valid and stored as codes, or a localized 400 naming exactly the bad fields and rows', async () => {
    let accepted = 0;
    let refused = 0;
    for (let design = 0; design < DESIGNS; design++) {
      const fields = Array.from({ length: 2 + Math.floor(rand() * 3) }, (_, i) => ({ kind: pick(KINDS), code: `F${i}` }));
      const controls = fields.map((f) => controlOf(f.kind, f.code));
      const v = view('Rec', [control('Name', 1001), ...controls]);
      const code = `Prop${design}`;
      const pageId = await publishPage(t, admin, code, { viewControls: [v], pageButtons: [], dataLinkages: [] });
      const token = clerk;
      const rows = async () => (await sql<Record<string, unknown>>`select * from ${bizTable(bizTableName(v.id))} where "IsDeleted" = false`.execute(t.database.db)).rows;
      const expectStored = async (name: string, samples: Sample[]) => {
        const row = (await rows()).find((r) => r.Name === name);
        expect(row, name).toBeDefined();
        fields.forEach((f, i) => expect(columnValue(f.kind, row![f.code]), `${name} ${f.code}`).toEqual(samples[i]!.stored));
      };

      // save-page, one record at a time, in either language.
      for (let n = 0; n < 12; n++) {
        const samples = fields.map((f) => sample(f.kind));
        const name = `d${design}-s${n}`;
        const lang = pick(['zh-CN', 'en-US']);
        const record = { Id: newId(), Name: name, ...Object.fromEntries(fields.map((f, i) => [f.code, samples[i]!.sent])) };
        const before = (await rows()).length;
        const res = await t.call(token, { method: 'POST', url: `${BD}/save-page`, headers: { 'accept-language': lang }, payload: { pageId, viewDataList: [{ viewId: v.id, dataList: [record] }] } });
        const bad = fields.filter((_, i) => !samples[i]!.ok).map((f) => `viewDataList.0.dataList.0.${f.code}`);
        if (bad.length === 0) {
          expect(res.statusCode, res.body).toBe(200);
          await expectStored(name, samples);
          accepted++;
        } else {
          expect(res.statusCode, `${JSON.stringify(record)} ${res.body}`).toBe(400);
          const errors = res.json().error.validationErrors as { message: string; members: string[] }[];
          expect(errors.map((e) => e.members[0])).toEqual(bad);
          for (const e of errors) expect(e.message).toMatch(lang === 'zh-CN' ? /不在可选项中|不是您可以选择的记录/ : /is not one of the options|is not a record you may choose/);
          expect((await rows()).length).toBe(before);
          refused++;
        }
      }

      // The import, a few records per file: all or nothing.
      for (let n = 0; n < 4; n++) {
        const records = Array.from({ length: 1 + Math.floor(rand() * 3) }, (_, r) => ({ name: `d${design}-i${n}-${r}`, samples: fields.map((f) => sample(f.kind)) }));
        const workbook = new ExcelJS.Workbook();
        const sheet = workbook.addWorksheet('Rec');
        sheet.addRow(['Name', ...fields.map((f) => f.code)]);
        for (const r of records) sheet.addRow([r.name, ...r.samples.map((s) => s.cell)]);
        const before = (await rows()).length;
        const res = await importWorkbook(t, token, { pageId, viewId: v.id }, workbook);
        const bad = records.flatMap((r, at) => fields.filter((_, i) => !r.samples[i]!.ok).map((f) => [at + 2, f.code]));
        if (bad.length === 0) {
          expect(res.statusCode, res.body).toBe(200);
          for (const r of records) await expectStored(r.name, r.samples);
          accepted += records.length;
        } else {
          expect(res.statusCode, res.body).toBe(400);
          const errors = res.json().error.details.errors as { row: number; column: string; message: string }[];
          expect(errors.map((e) => [e.row, e.column])).toEqual(bad);
          expect((await rows()).length).toBe(before);
          refused++;
        }
      }
    }
    // Both outcomes were exercised.
    expect(accepted).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
  });
});
