import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { bizPermission } from '@tessera/core/contracts/permissions';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageWorkCodes } from './access-fixtures.ts';
import { publishPage } from './business-data-fixtures.ts';
import { control, view } from './page-helpers.ts';
import { createTestApp, type TestApp } from './test-app.ts';

// README "Integrating": the example client in examples/api-client, typed from the served OpenAPI
// document, run as another system would run it — over HTTP, with a personal API key.

const ROOT = path.resolve(import.meta.dirname, '../..');
const EXAMPLE = path.join(ROOT, 'examples/api-client');
const run = promisify(execFile);

let t: TestApp;
let url: string;
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.login();
  const master = view('ExampleOrder', [control('SupplierName', 1001, { extraProperties: { required: true } }), control('Quantity', 1002, { extraProperties: { min: 0 } })]);
  await publishPage(t, admin, 'ExampleOrder', { viewControls: [master], pageButtons: [], dataLinkages: [] });
  // A key narrowed to this page: its access, actions and fields.
  const codes = [...pageWorkCodes('ExampleOrder'), ...['SupplierName', 'Quantity'].flatMap((f) => [bizPermission.fieldView('ExampleOrder', f), bizPermission.fieldEdit('ExampleOrder', f)])];
  const created = await t.call(admin, { method: 'POST', url: '/api/app/my-api-keys', payload: { name: 'example client', expiresAt: null, codes } });
  expect(created.statusCode, created.body).toBe(200);
  key = created.json().key;
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

describe('the example API client (examples/api-client)', () => {
  it('compiles against types generated from the served document', async () => {
    const doc = (await fetch(`${url}/api/docs/json`)).json();
    writeFileSync(path.join(EXAMPLE, 'tessera-api.d.ts'), astToString(await openapiTS((await doc) as never)));
    const program = ts.createProgram([path.join(EXAMPLE, 'records.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      types: ['node'],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
  });

  it('creates and reads records of a published page from outside, with the key', async () => {
    const env = { ...process.env, TESSERA_URL: url, TESSERA_API_KEY: key, TESSERA_PAGE: 'ExampleOrder' };
    const records = JSON.stringify([{ SupplierName: 'Acme 有限公司', Quantity: 3 }, { SupplierName: 'Bolt', Quantity: 12 }]);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(EXAMPLE, 'records.ts'), records], { cwd: ROOT, env });
    const out = JSON.parse(stdout);
    expect(out.page).toBe('ExampleOrder');
    expect(out.created).toHaveLength(2);
    expect(out.saved).toMatchObject([{ Id: out.created[0], SupplierName: 'Acme 有限公司', Quantity: 3 }, { Id: out.created[1], SupplierName: 'Bolt', Quantity: 12 }]);
    expect(out.newest.map((r: { SupplierName: string }) => r.SupplierName).sort()).toEqual(['Acme 有限公司', 'Bolt']);
    expect(out.totalCount).toBe(2);

    // The product's own rules apply to a key as to a person: a required field missing is refused, nothing saved.
    const bad = await run(process.execPath, ['--import', 'tsx', path.join(EXAMPLE, 'records.ts'), JSON.stringify([{ Quantity: 1 }])], { cwd: ROOT, env }).catch((err: { code: number; stderr: string }) => err);
    expect('code' in bad && bad.code).toBe(1);
    expect((bad as { stderr: string }).stderr).toMatch(/save: HTTP 400 .*ValidationError/);
    // The saves are the key owner's, and each call is in the audit log under the key.
    const uses = await t.database.db.selectFrom('audit_logs').select('details').where('action', '=', 'ApiKeyUsed').execute();
    expect(uses.map((u) => (u.details as { route: string }).route)).toEqual(expect.arrayContaining(['/api/app/business-data/save-page', '/api/app/business-data/query-view-data']));
  });
});
