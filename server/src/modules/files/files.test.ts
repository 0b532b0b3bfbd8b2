import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { bizPermission } from '@tessera/core/contracts/permissions';
import { filterOperatorsForControl } from '@tessera/core/controls/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, FIXTURE_PASSWORD, grant } from '../../../test/access-fixtures.ts';
import { BD, bd, importWorkbook, newId, publishPage } from '../../../test/business-data-fixtures.ts';
import { workbookOf } from '../../../test/workbook-upload.ts';
import { control, view } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { systemContext } from '../../platform/context.ts';
import { sweepStaleFiles } from './files.service.ts';
import { storageKeyOf } from './files.storage.ts';
import { existsSync } from 'node:fs';

// Attachment (1013) and image (1014) uploads: type and size rules, downloads that follow the
// record's rights, thumbnails, and the file ids a save may reference.

let t: TestApp;
let dataDir: string;
let admin: string;
let pageId: string;
let viewId: string;
const tokens: Record<string, string> = {};
const LIMITS = { maxBytes: 64 * 1024, imageMaxBytes: 32 * 1024 };

interface Ref { id: string; name: string; size: number; type: string }

async function upload(who: string, controlCode: string, name: string, bytes: Buffer, language = 'en-US') {
  const form = new FormData();
  form.append('pageCode', 'Docs');
  form.append('controlCode', controlCode);
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const request = new Request('http://local/', { method: 'POST', body: form });
  return t.call(tokens[who]!, {
    method: 'POST',
    url: '/api/app/files',
    headers: { 'content-type': request.headers.get('content-type')!, 'accept-language': language },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}
async function uploaded(who: string, controlCode: string, name: string, bytes: Buffer): Promise<Ref> {
  const res = await upload(who, controlCode, name, bytes);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const download = (who: string, id: string, query = '') => t.call(tokens[who]!, { method: 'GET', url: `/api/app/files/${id}${query}` });
const record = (Id: string, values: Record<string, unknown>) => ({ pageId, viewDataList: [{ viewId, dataList: [{ Id, ...values }] }] });
const save = (who: string, Id: string, values: Record<string, unknown>, status = 200) => bd(t, tokens[who]!, 'save-page', record(Id, values), status);

const pdf = Buffer.from('%PDF-1.4\n% a small contract\n');
let png: Buffer;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'tessera-files-'));
  t = await createTestApp({ dataDir, files: LIMITS });
  tokens.admin = admin = await t.login();
  const v = view('Docs', [control('Title', 1001), control('Files', 1013), control('Contracts', 1013, { extraProperties: { accept: '.pdf, .DOCX' } }), control('Photos', 1014, { extraProperties: { maxFiles: 2 } })]);
  viewId = v.id;
  pageId = await publishPage(t, admin, 'Docs', { viewControls: [v], pageButtons: [], dataLinkages: [] });
  const db = t.database.db;
  const editFields = ['Title', 'Files', 'Photos', 'Contracts'].map((f) => bizPermission.fieldEdit('Docs', f));
  const clerk = await createRole(db, 'clerk');
  await grant(db, 'R', clerk, [bizPermission.access('Docs'), ...editFields, ...(['add', 'edit', 'import'] as const).map((a) => bizPermission.action('Docs', a))]);
  const reader = await createRole(db, 'reader');
  await grant(db, 'R', reader, [bizPermission.access('Docs'), bizPermission.action('Docs', 'export'), ...['Title', 'Files', 'Photos'].map((f) => bizPermission.fieldView('Docs', f))]);
  for (const [role, scope] of [[clerk, 'own'], [reader, 'all']] as const) {
    const res = await t.call(admin, { method: 'PUT', url: `/api/app/data-scopes?roleId=${role}`, payload: { items: [{ pageKey: 'Docs', scope, customFilter: null }] } });
    expect(res.statusCode, res.body).toBe(200);
  }
  const nobody = await createRole(db, 'nobody');
  for (const [name, role] of [['ann', clerk], ['bob', clerk], ['cat', reader], ['nat', nobody]] as const) {
    await createUser(db, name, { roles: [role] });
    tokens[name] = await t.login(name, FIXTURE_PASSWORD);
  }
  png = await sharp({ create: { width: 640, height: 320, channels: 3, background: '#3366cc' } }).png().toBuffer();
});
afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('files of attachment and image controls', () => {
  it('upload, save, and download by whoever may read the record; the Chinese name survives', async () => {
    const contract = await uploaded('ann', 'Files', '采购合同.pdf', pdf);
    expect(contract).toMatchObject({ name: '采购合同.pdf', size: pdf.length, type: 'application/pdf' });
    const photo = await uploaded('ann', 'Photos', 'photo.png', png);
    expect(photo.type).toBe('image/png');

    // Unbound: only the uploader sees it.
    expect((await download('ann', contract.id)).statusCode).toBe(200);
    for (const who of ['bob', 'cat', 'nat']) expect((await download(who, contract.id)).statusCode).toBe(404);

    const id = newId();
    await save('ann', id, { Title: 'Contract', Files: JSON.stringify([contract]), Photos: [photo] });

    const res = await download('cat', contract.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.equals(pdf)).toBe(true);
    expect(res.headers['content-disposition']).toMatch(/^attachment; .*filename\*=UTF-8''%E9%87%87%E8%B4%AD%E5%90%88%E5%90%8C\.pdf$/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain('sandbox');

    // Bob's scope is his own records, Nat has no access to the page.
    expect((await download('bob', contract.id)).statusCode).toBe(404);
    expect((await download('nat', contract.id)).statusCode).toBe(404);

    // An image may be shown in the page; an attachment always downloads.
    const inline = await download('cat', photo.id, '?inline=1');
    expect(inline.headers['content-disposition']).toMatch(/^inline;/);
    expect(inline.headers['content-type']).toBe('image/png');
    expect((await download('cat', contract.id, '?inline=1')).headers['content-disposition']).toMatch(/^attachment;/);

    const list = await bd(t, tokens.cat!, 'query-view-data', { pageId, viewId, filterConditions: [{ key: 'Files', judgmentMethod: 'contains', value: '合同' }] });
    expect(list.items.map((i: { Title: string }) => i.Title)).toEqual(['Contract']);
    expect(JSON.parse(list.items[0].Photos)).toEqual([photo]);
  });

  it('thumbnails a real PNG to at most 200 px, WebP, kept for the next request', async () => {
    const photo = await uploaded('ann', 'Photos', 'wide.png', png);
    const res = await t.call(tokens.ann!, { method: 'GET', url: `/api/app/files/${photo.id}/thumbnail` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width!, meta.height!)).toBe(200);
    expect((await t.call(tokens.ann!, { method: 'GET', url: `/api/app/files/${photo.id}/thumbnail` })).rawPayload.equals(res.rawPayload)).toBe(true);
    expect((await t.call(tokens.bob!, { method: 'GET', url: `/api/app/files/${photo.id}/thumbnail` })).statusCode).toBe(404);
  });

  it('refuses HTML named .png as an image, and programs or pages as attachments', async () => {
    const fake = await upload('ann', 'Photos', 'cat.png', Buffer.from('<html><script>alert(1)</script></html>'), 'zh-CN');
    expect(fake.statusCode).toBe(400);
    expect(fake.json().error.message).toBe('文件“cat.png”不是 PNG、JPEG、GIF 或 WebP 图片');
    expect(fake.json().error.validationErrors[0].members).toEqual(['file']);
    expect((await upload('ann', 'Files', 'setup.exe', Buffer.from('MZ'))).statusCode).toBe(400);
    expect((await upload('ann', 'Files', 'readme.txt', Buffer.from('<!doctype html><p>hi'))).statusCode).toBe(400);
    expect((await upload('ann', 'Files', 'logo.svg', Buffer.from('<svg/>'))).statusCode).toBe(400);
    // A control's accepted extensions.
    const notAccepted = await upload('ann', 'Contracts', 'notes.txt', Buffer.from('text'));
    expect(notAccepted.statusCode).toBe(400);
    expect(notAccepted.json().error.message).toBe('File "notes.txt" is not accepted here; only .pdf, .docx');
    expect((await upload('ann', 'Contracts', 'deal.PDF', pdf)).statusCode).toBe(200);
  });

  it('refuses a file over the limit, in the caller’s language', async () => {
    const big = await upload('ann', 'Files', '大文件.bin', Buffer.alloc(LIMITS.maxBytes + 1, 1), 'zh-CN');
    expect(big.statusCode).toBe(413);
    expect(big.json().error.message).toBe('文件“大文件.bin”超过 0.1 MB 的上限');
    const image = await upload('ann', 'Photos', 'big.png', Buffer.concat([png, Buffer.alloc(LIMITS.imageMaxBytes)]));
    expect(image.statusCode).toBe(413);
    expect(image.json().error.message).toContain('larger than the limit of');
    expect((await upload('ann', 'Files', 'ok.bin', Buffer.alloc(LIMITS.maxBytes, 1))).statusCode).toBe(200);
  });

  it('refuses uploads to pages or controls the caller may not use, and bad input before reading', async () => {
    expect((await upload('nat', 'Files', 'a.pdf', pdf)).statusCode).toBe(403);
    expect((await upload('cat', 'Files', 'a.pdf', pdf)).statusCode).toBe(403);
    expect((await upload('ann', 'Title', 'a.pdf', pdf)).statusCode).toBe(404);
    const bad = await upload('ann', 'Files; drop table', 'a.pdf', pdf);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.validationErrors[0].members).toEqual(['controlCode']);
    const none = await t.call(tokens.ann!, { method: 'POST', url: '/api/app/files', payload: { pageCode: 'Docs' } });
    expect(none.statusCode).toBe(400);
  });

  it('a save may not reference someone else’s unbound file, another field’s file, or altered names', async () => {
    const anns = await uploaded('ann', 'Files', 'ann.pdf', pdf);
    const res = await save('bob', newId(), { Files: [anns] }, 400);
    expect(res.error.validationErrors[0].members).toEqual(['viewDataList.0.dataList.0.Files']);
    expect(res.error.message).toBe('“Files”：不能使用其他人上传的文件');
    const photo = await uploaded('ann', 'Photos', 'p.png', png);
    expect((await save('ann', newId(), { Files: [photo] }, 400)).error.validationErrors[0].members).toEqual(['viewDataList.0.dataList.0.Files']);
    expect((await save('ann', newId(), { Files: [{ ...anns, name: 'other.exe' }] }, 400)).error.validationErrors[0].members).toEqual(['viewDataList.0.dataList.0.Files']);
    expect((await save('ann', newId(), { Files: [{ ...anns, id: newId() }] }, 400)).error.validationErrors[0].members).toEqual(['viewDataList.0.dataList.0.Files']);
    // More files than maxFiles (2).
    const tooMany = [photo, await uploaded('ann', 'Photos', 'q.png', png), await uploaded('ann', 'Photos', 'r.png', png)];
    expect((await save('ann', newId(), { Photos: tooMany }, 400)).error.validationErrors[0].members).toEqual(['viewDataList.0.dataList.0.Photos']);
    // A file bound to one record cannot be referenced by another, nor renamed in its own.
    const first = newId();
    await save('ann', first, { Files: [anns] });
    const stamp = (await bd(t, tokens.ann!, 'query-page-data', { pageId, id: first })).viewDataList[0].dataList[0].ConcurrencyStamp;
    expect((await save('ann', first, { Files: [{ ...anns, name: 'renamed.pdf' }], ConcurrencyStamp: stamp }, 400)).error.validationErrors[0].members).toEqual(['viewDataList.0.dataList.0.Files']);
    await save('ann', first, { Title: 'same files', Files: [anns], ConcurrencyStamp: stamp });
    expect((await save('ann', newId(), { Files: [anns] }, 400)).error.message).toBe('“Files”：文件属于另一条记录');
  });

  it('a file removed from a value is no longer served; the others stay', async () => {
    const keep = await uploaded('ann', 'Files', 'keep.pdf', pdf);
    const drop = await uploaded('ann', 'Files', 'drop.pdf', pdf);
    const id = newId();
    const saved = await save('ann', id, { Files: [keep, drop] });
    const stamp = saved.viewDataList?.[0]?.dataList?.[0]?.ConcurrencyStamp ?? (await bd(t, tokens.ann!, 'query-page-data', { pageId, id })).viewDataList[0].dataList[0].ConcurrencyStamp;
    await save('ann', id, { Files: [keep], ConcurrencyStamp: stamp });
    expect((await download('ann', keep.id)).statusCode).toBe(200);
    expect((await download('ann', drop.id)).statusCode).toBe(404);
    // The history names the files, not the stored JSON.
    const history = await t.call(tokens.ann!, { method: 'GET', url: `${BD}/record-history?pageId=${pageId}&id=${id}` });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().items[0].changes.find((c: { code: string }) => c.code === 'Files')).toMatchObject({ beforeText: 'keep.pdf, drop.pdf', afterText: 'keep.pdf' });
  });

  it('every operator of a text field works on a file field (over the names)', async () => {
    for (const op of filterOperatorsForControl({ controlType: 1013 })) {
      const value = op.arity === 'none' ? undefined : op.arity === 'two' ? ['a', 'z'] : op.arity === 'list' ? ['采购合同.pdf'] : '合同';
      const res = await t.call(tokens.cat!, { method: 'POST', url: `${BD}/query-view-data`, payload: { pageId, viewId, filterConditions: [{ key: 'Files', judgmentMethod: op.code, ...(value === undefined ? {} : { value }) }] } });
      expect(res.statusCode, `${op.code}: ${res.body}`).toBe(200);
    }
    const eq = await bd(t, tokens.cat!, 'query-view-data', { pageId, viewId, filterConditions: [{ key: 'Files', judgmentMethod: 'eq', value: '采购合同.pdf' }] });
    expect(eq.items.map((i: { Title: string }) => i.Title)).toEqual(['Contract']);
  });

  it('is empty / is not empty filter on the files', async () => {
    const list = async (judgmentMethod: string) =>
      (await bd(t, tokens.cat!, 'query-view-data', { pageId, viewId, MaxResultCount: 1000, filterConditions: [{ key: 'Photos', judgmentMethod }] })).items.map((i: { Title: string }) => i.Title);
    expect(await list('isNotEmpty')).toEqual(['Contract']);
    expect((await list('isEmpty')).length).toBeGreaterThan(0);
    expect(await list('isEmpty')).not.toContain('Contract');
  });

  it('Excel: the export writes the files’ names; the template leaves file columns out and the import skips them', async () => {
    const res = await t.call(tokens.cat!, { method: 'POST', url: `${BD}/export-view-data`, payload: { pageId, viewId, filterConditions: [{ key: 'Title', judgmentMethod: 'eq', value: 'Contract' }] } });
    expect(res.statusCode, res.body).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['Title', 'Files', 'Photos']);
    expect((sheet.getRow(2).values as unknown[]).slice(1)).toEqual(['Contract', '采购合同.pdf', 'photo.png']);

    const template = await t.call(tokens.ann!, { method: 'GET', url: `${BD}/import-template?pageId=${pageId}&viewId=${viewId}` });
    expect(template.statusCode, template.body).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
    expect((book.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toEqual(['Title']);

    // The exported workbook imports as it is: the names are not files, so the new record has none.
    const imported = await importWorkbook(t, tokens.ann!, { pageId, viewId }, await workbookOf(['Title', 'Files', 'Photos'], [['Imported', '采购合同.pdf', 'photo.png']]));
    expect(imported.statusCode, imported.body).toBe(200);
    const list = await bd(t, tokens.ann!, 'query-view-data', { pageId, viewId, filterConditions: [{ key: 'Title', judgmentMethod: 'eq', value: 'Imported' }] });
    expect(list.items.map((i: { Files: string; Photos: string }) => [i.Files, i.Photos])).toEqual([['[]', '[]']]);
  });

  it('a thumbnail of bytes that only start like a PNG is a localized 422, not a server error', async () => {
    const broken = await uploaded('ann', 'Photos', 'broken.png', Buffer.concat([png.subarray(0, 16), Buffer.alloc(64, 7)]));
    const res = await t.call(tokens.ann!, { method: 'GET', url: `/api/app/files/${broken.id}/thumbnail`, headers: { 'accept-language': 'zh-CN' } });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.message).toBe('无法读取图片“broken.png”，不能生成缩略图');
  });

  it('the sweep removes day-old unsaved uploads and dropped files, never a saved one', async () => {
    const unsaved = await uploaded('ann', 'Files', 'unsaved.pdf', pdf);
    const kept = await uploaded('ann', 'Files', 'kept.pdf', pdf);
    const dropped = await uploaded('ann', 'Files', 'dropped.pdf', pdf);
    const id = newId();
    await save('ann', id, { Files: [kept, dropped] });
    const stamp = (await bd(t, tokens.ann!, 'query-page-data', { pageId, id })).viewDataList[0].dataList[0].ConcurrencyStamp;
    await save('ann', id, { Files: [kept], ConcurrencyStamp: stamp });
    const fresh = await uploaded('ann', 'Files', 'fresh.pdf', pdf);
    const db = t.database.db;
    await db.updateTable('files').set({ created_at: new Date(Date.now() - 25 * 3_600_000) }).where('id', 'in', [unsaved.id, kept.id, dropped.id]).execute();
    const ctx = systemContext(t.app);
    expect(await sweepStaleFiles(ctx, { force: true })).toBeGreaterThanOrEqual(2);
    const left = (await db.selectFrom('files').select('id').where('id', 'in', [unsaved.id, kept.id, dropped.id, fresh.id]).execute()).map((r) => r.id).sort();
    expect(left).toEqual([kept.id, fresh.id].sort());
    expect((await download('ann', kept.id)).statusCode).toBe(200);
    expect((await download('ann', fresh.id)).statusCode).toBe(200);
    expect((await download('ann', unsaved.id)).statusCode).toBe(404);
    const onDisk = (fileId: string) => existsSync(path.join(dataDir, 'files', ...storageKeyOf(fileId).split('/')));
    expect([unsaved, kept, dropped, fresh].map((f) => onDisk(f.id))).toEqual([false, true, false, true]);
  });
});
