import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import type { RouteAccess } from './route-access.ts';

/**
 * The document at /api/docs/json is what integrators generate clients from: it must pass the
 * common validators, and a client generated from it must compile.
 */

type Operation = {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { in: string }[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  tags?: { name: string; description?: string }[];
  components: { securitySchemes: Record<string, unknown> };
  servers?: { url: string }[];
};

/** Warnings the document keeps, each for a reason outside the document. */
const ACCEPTED_WARNINGS = new Set([
  // The product has not chosen a licence yet.
  'info-license',
  // `/workflow-definition/page-design/{id}` beside `/workflow-definition/{id}/copy`…: URLs the web app
  // calls; the router prefers the static segment, so each request has one route.
  'no-ambiguous-paths',
]);

let t: TestApp;
let text: string;
let doc: Document;
const operations: { method: string; path: string; operation: Operation }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  text = res.body;
  doc = JSON.parse(text);
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) operations.push({ method, path, operation });
  }
});
afterAll(() => t.close());

describe('the OpenAPI document', () => {
  it('resolves every $ref (a recursive zod schema needs `.meta({ id })` to become a component)', () => {
    const names = new Set(Object.keys((doc.components as { schemas?: object }).schemas ?? {}));
    const refs = [...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs).toContain('PageView');
    expect([...new Set(refs.filter((name) => !names.has(name)))]).toEqual([]);
  });

  it('is valid for swagger-parser', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it("has no error under redocly's recommended rules, and only the accepted warnings", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: text, absoluteRef: path.join(tmpdir(), 'openapi.json'), config });
    const describe = (p: (typeof problems)[number]) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`;
    expect(problems.filter((p) => p.severity === 'error').map(describe)).toEqual([]);
    expect(problems.filter((p) => !ACCEPTED_WARNINGS.has(p.ruleId)).map(describe)).toEqual([]);
  });

  it('gives every operation a unique verbNoun operationId and a declared module tag', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(ids.filter((id) => !/^[a-z]+[A-Z][A-Za-z0-9]*$/.test(id ?? ''))).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const declared = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description]));
    for (const { method, path, operation } of operations) {
      expect(operation.tags?.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const tag of operation.tags!) expect(declared.get(tag), `tag ${tag}`).toBeTruthy();
    }
    expect(doc.servers?.length).toBeGreaterThan(0);
  });

  it("declares security and the error answers from each route's access", () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'bearer']);
    const accessOf = new Map<string, RouteAccess | undefined>();
    const sessionOnly = new Set<string>();
    for (const route of t.app.routeTable) {
      const url = route.url.replace(/:(\w+)/g, '{$1}');
      for (const method of [route.method].flat()) {
        accessOf.set(`${method.toLowerCase()} ${url}`, route.access);
        if (route.sessionOnly) sessionOnly.add(`${method.toLowerCase()} ${url}`);
      }
    }
    for (const { method, path, operation } of operations) {
      const where = `${method} ${path}`;
      const access = accessOf.get(where);
      expect(accessOf.has(where), where).toBe(true);
      // Keys cannot manage keys, the password or the session: those routes take a session's token only.
      expect(operation.security, where).toEqual(access?.kind === 'public' ? [] : sessionOnly.has(where) ? [{ bearer: [] }] : [{ bearer: [] }, { apiKey: [] }]);
      const statuses = Object.keys(operation.responses);
      expect(statuses.some((s) => s.startsWith('4')), where).toBe(true);
      expect(statuses.includes('401'), where).toBe(access?.kind !== 'public');
      expect(statuses.includes('403'), where).toBe(access?.kind === 'permission' || sessionOnly.has(where));
      // A key past its per-minute budget: every route a key may call.
      if (access?.kind !== 'public') expect(statuses.includes('429'), where).toBe(!sessionOnly.has(where));
      if (path.includes('{')) expect(statuses, where).toContain('404');
      if (operation.requestBody || operation.parameters?.length) expect(statuses, where).toContain('400');
    }
    expect(operations.find((o) => o.path === '/api/Auth/Login')?.operation.responses).toHaveProperty('429');
    expect(sessionOnly).toContain('post /api/app/my-api-keys');
  });

  it('generates TypeScript types (openapi-typescript) that compile in a client', async () => {
    const generated = astToString(await openapiTS(structuredClone(doc) as never));
    const dir = mkdtempSync(path.join(tmpdir(), 'tessera-openapi-'));
    try {
      writeFileSync(path.join(dir, 'api.ts'), generated);
      writeFileSync(
        path.join(dir, 'client.ts'),
        `import type { components, operations, paths } from './api';
type UserList = paths['/api/identity/users']['get']['responses'][200]['content']['application/json'];
export const firstUserName = (list: UserList): string | undefined => list.items[0]?.userName;
type Published = paths['/api/app/page-definition/{id}/publish']['post']['responses'][200]['content']['application/json'];
type PageView = components['schemas']['PageView'];
export const childViews = (answer: Published): PageView[] => answer.page.definition.viewControls.flatMap((view) => view.viewControls);
type NotFound = operations['getUser']['responses'][404]['content']['application/json'];
export const errorCode = (answer: NotFound): string => answer.error.code;
export const publishId: operations['publishPageDefinition']['parameters']['path']['id'] = '00000000-0000-0000-0000-000000000000';
`,
      );
      const program = ts.createProgram([path.join(dir, 'client.ts')], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        skipLibCheck: true,
        types: [],
      });
      const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(diagnostics).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
