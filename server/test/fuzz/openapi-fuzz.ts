/**
 * Schema-driven fuzzing of every operation in the OpenAPI document (issue 27): requests built from
 * each operation's own schema — conforming values, and values with one hostile leaf (NUL, lone
 * surrogates, strings at and past their limits, extreme numbers, dates at and past the ends of the
 * calendar, deep nesting, wrong types). Used by `server/test/fuzz.test.ts` (short, fixed seed) and
 * `bench/fuzz/fuzz.bench.ts` (long).
 */
import { randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { bizPermission } from '@tessera/core/contracts/permissions';
import { createRole, createUser, FIXTURE_PASSWORD, grant, pageWorkCodes } from '../access-fixtures.ts';
import { TEST_ADMIN_PASSWORD, type TestApp } from '../test-app.ts';

/** A small deterministic PRNG (mulberry32), so a failing seed can be replayed. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof prng>;

type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
};

export interface Operation {
  method: string;
  path: string;
  parameters: { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: Schema }[];
  body: Schema | null;
}

/** The operations of an OpenAPI 3 document (JSON bodies only; multipart/binary uploads are skipped). */
export function operationsOf(doc: { paths: Record<string, Record<string, { parameters?: Operation['parameters']; requestBody?: { content?: Record<string, { schema: Schema }> } }>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = op.requestBody?.content;
      if (content && !content['application/json']) continue;
      ops.push({ method: method.toUpperCase(), path, parameters: op.parameters ?? [], body: content?.['application/json']?.schema ?? null });
    }
  }
  return ops;
}

/** Hostile leaves, by the kind of value they replace. */
export const HOSTILE_STRINGS = [
  'a\u0000',
  '\u0000',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  '0000-01-01',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '10000-01-01',
  '-000001-01-01T00:00:00Z',
  '1e400',
  'NaN',
  'Infinity',
  "' or 1=1 --",
  '"; drop table users; --',
  '<img src=x onerror=alert(1)>',
  '../../etc/passwd',
  '%00',
  '\\',
  '${7*7}',
  '=cmd|/c calc!A1',
  '',
  ' ',
  '表'.repeat(300),
];
export const HOSTILE_NUMBERS = [1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -(2 ** 63), 2 ** 63, 0.5, -1, 0, 1e-320, 253402300800000, -62135596800001];
const WRONG_TYPES: unknown[] = [null, true, 12, 'text', [], {}, [[[[]]]], { a: { b: { c: {} } } }];

/** Values real data uses, so that requests reach the rules and not only "not found". */
export type KnownValues = Record<string, readonly unknown[]>;

export interface GenerateOptions {
  rng: Rng;
  known: KnownValues;
  /** Replace one leaf with a hostile value (else every value conforms to the schema as far as the generator can tell). */
  hostile: boolean;
  resolve: (ref: string) => Schema | undefined;
}

/** Builds a value for `schema`; with `hostile`, roughly one leaf in the value is hostile. */
export function generate(schema: Schema | undefined, options: GenerateOptions, name = '', depth = 0): unknown {
  const { rng, known, hostile } = options;
  if (!schema || depth > 8) return undefined;
  if (schema.$ref) return generate(options.resolve(schema.$ref), options, name, depth + 1);
  if (schema.allOf?.length) return generate(Object.assign({}, ...schema.allOf) as Schema, options, name, depth + 1);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return generate(rng.pick(variants), options, name, depth + 1);
  const leafHostile = hostile && rng.chance(0.25);
  if (leafHostile && rng.chance(0.15)) return rng.pick(WRONG_TYPES);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length && !leafHostile) return rng.pick(schema.enum);
  const knownValues = known[name.toLowerCase()];
  if (knownValues?.length && !leafHostile && rng.chance(0.7)) return rng.pick(knownValues);
  const type = Array.isArray(schema.type) ? rng.pick(schema.type.filter((t) => t !== 'null')) : schema.type;
  switch (type) {
    case 'string':
      return stringFor(schema, rng, leafHostile);
    case 'integer':
    case 'number': {
      if (leafHostile) return rng.pick(HOSTILE_NUMBERS);
      const lo = typeof schema.minimum === 'number' ? schema.minimum : 0;
      const hi = typeof schema.maximum === 'number' ? Math.min(schema.maximum, lo + 1000) : lo + 1000;
      const n = rng.int(Math.ceil(lo), Math.floor(hi));
      return type === 'integer' ? n : n + (rng.chance(0.5) ? 0.25 : 0);
    }
    case 'boolean':
      return leafHostile ? rng.pick(['true', 1, null]) : rng.chance(0.5);
    case 'array': {
      if (leafHostile && rng.chance(0.3)) return nested(rng.int(50, 400));
      const min = schema.minItems ?? 0;
      const max = Math.min(schema.maxItems ?? 3, min + 3);
      const count = leafHostile && rng.chance(0.3) ? (schema.maxItems ?? 5) + 1 : rng.int(min, Math.max(min, max));
      return Array.from({ length: Math.min(count, 5001) }, () => generate(schema.items, options, singular(name), depth + 1));
    }
    case 'object':
    default: {
      if (!schema.properties && schema.additionalProperties !== undefined) return freeRecord(options, depth);
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(schema.properties ?? {})) {
        const required = schema.required?.includes(key);
        if (!required && rng.chance(0.4)) continue;
        if (leafHostile && required && rng.chance(0.1)) continue;
        const value = generate(prop, options, key, depth + 1);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
  }
}

const singular = (name: string) => (name.endsWith('List') ? name.slice(0, -4) : name.endsWith('s') ? name.slice(0, -1) : name);

function nested(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function stringFor(schema: Schema, rng: Rng, hostile: boolean): string {
  if (hostile) {
    if (schema.maxLength !== undefined && rng.chance(0.3)) return 'y'.repeat(schema.maxLength + 1);
    return rng.pick(HOSTILE_STRINGS);
  }
  if (schema.format === 'uuid') return randomUuid(rng);
  if (schema.format === 'date-time') return new Date(Date.UTC(2026, rng.int(0, 11), rng.int(1, 28), rng.int(0, 23))).toISOString();
  if (schema.format === 'email') return `u${rng.int(1, 1e6)}@example.com`;
  const min = schema.minLength ?? 1;
  const max = Math.max(min, Math.min(schema.maxLength ?? 12, 12));
  const length = rng.int(min, max);
  const letters = 'abcdefghijklmnopqrstuvwxyzABC中文';
  return Array.from({ length }, () => rng.pick([...letters])).join('');
}

export function randomUuid(rng: Rng): string {
  const hex = () => rng.int(0, 15).toString(16);
  const part = (n: number) => Array.from({ length: n }, hex).join('');
  return `${part(8)}-${part(4)}-7${part(3)}-8${part(3)}-${part(12)}`;
}

/** A loosely typed record (business data rows, settings values): known field names, mixed values. */
function freeRecord(options: GenerateOptions, depth: number): Record<string, unknown> {
  const { rng, known, hostile } = options;
  const fields = (known.fieldcodes as string[] | undefined) ?? ['Name', 'Amount', 'Date'];
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (rng.chance(0.3)) continue;
    const leafHostile = hostile && rng.chance(0.3);
    out[field] = leafHostile
      ? rng.pick<unknown>([...HOSTILE_STRINGS, ...HOSTILE_NUMBERS, ...WRONG_TYPES, nested(rng.int(20, 300))])
      : rng.pick<unknown>(known[`field:${field.toLowerCase()}`] ?? ['text', 12, '2026-01-02', true]);
  }
  if (depth < 3 && known.id?.length && rng.chance(0.3)) out.Id = rng.pick(known.id);
  return out;
}

export interface FuzzRequest {
  operation: Operation;
  hostile: boolean;
  options: InjectOptions;
}

/** One request for an operation: path and query parameters, and a JSON body when it has one. */
export function requestFor(operation: Operation, options: GenerateOptions): FuzzRequest {
  const { rng } = options;
  let url = operation.path;
  const query: Record<string, string> = {};
  for (const param of operation.parameters) {
    if (param.in === 'header') continue;
    if (param.in === 'query' && !param.required && rng.chance(0.5)) continue;
    const value = generate(param.schema, options, param.name);
    const text = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
    if (param.in === 'path') url = url.replace(`{${param.name}}`, encodePathSegment(text || 'x'));
    else query[param.name] = text;
  }
  const qs = new URLSearchParams(query).toString();
  const injected: InjectOptions = { method: operation.method as InjectOptions['method'], url: qs ? `${url}?${qs}` : url };
  if (operation.body) {
    injected.payload = JSON.stringify(generate(operation.body, options, 'body'));
    injected.headers = { 'content-type': 'application/json' };
  }
  return { operation, hostile: options.hostile, options: injected };
}

/**
 * Percent-encodes a path segment; a lone surrogate (which `encodeURIComponent` refuses) goes as
 * the bytes a careless client would send (WTF-8), so the server meets those too.
 */
function encodePathSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text]
      .map((ch) => {
        const code = ch.codePointAt(0)!;
        if (code >= 0xd800 && code <= 0xdfff) return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
        return encodeURIComponent(ch);
      })
      .join('');
  }
}

export interface FuzzOutcome {
  request: FuzzRequest;
  caller: string;
  response: LightMyRequestResponse;
}

/** The failures a user would see as "server error": any 5xx. */
export const isServerError = (o: FuzzOutcome) => o.response.statusCode >= 500;

export function describeOutcome(o: FuzzOutcome): string {
  const body = String(o.request.options.payload ?? '').slice(0, 300);
  return `${o.caller} ${o.request.options.method} ${String(o.request.options.url).slice(0, 200)} → ${o.response.statusCode} ${o.response.body.slice(0, 200)}${body ? `\n    body: ${body}` : ''}`;
}

// ---------------------------------------------------------------- the target and the run

/** The running app, signed-in callers and the values real data uses. */
export interface FuzzTarget {
  app: TestApp;
  tokens: Record<string, string | null>;
  credentials: Record<string, [string, string]>;
  known: KnownValues;
}

const fuzzControl = (code: string, controlType: number, extra: object = {}) => ({ id: randomUUID(), code, title: code, controlType, isDisplayed: true, isEdit: true, ...extra });

/**
 * A published page with one record of every kind of value, and a clerk who may open and edit it,
 * so that requests reach the business rules and not only "not found" or "forbidden".
 */
export async function prepareFuzzTarget(app: TestApp): Promise<FuzzTarget> {
  const admin = await app.login();
  const call = async (method: InjectOptions['method'], url: string, payload: object) => {
    const res = await app.call(admin, { method, url, payload });
    if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const controls = [
    fuzzControl('Name', 1001, { extraProperties: { maxLength: 50 } }),
    fuzzControl('Amount', 1003, { extraProperties: { accuracy: 2 } }),
    fuzzControl('Qty', 1002),
    fuzzControl('Day', 1004),
    fuzzControl('Kind', 1006, { options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }] }),
    fuzzControl('Tags', 1008, { options: [{ value: 'x', label: 'X' }, { value: 'y', label: 'Y' }] }),
    fuzzControl('Done', 1005),
  ];
  const orders = { id: randomUUID(), code: 'Orders', title: 'Orders', viewType: 1, dataControls: controls, viewButtons: [], viewControls: [] };
  const page = await call('POST', '/api/app/page-definition', { code: 'FuzzOrders', name: { 'zh-CN': '订单', 'en-US': 'Orders' }, definition: { viewControls: [orders], pageButtons: [], dataLinkages: [] } });
  await call('POST', `/api/app/page-definition/${page.id}/publish`, {});
  const recordId = randomUUID();
  await call('POST', '/api/app/business-data/save-page', {
    pageId: page.id,
    viewDataList: [{ viewId: orders.id, dataList: [{ Id: recordId, Name: 'first', Amount: '12.50', Qty: 3, Day: '2026-11-25', Kind: 'a', Tags: ['x'], Done: true }] }],
  });
  const db = app.database.db;
  const clerks = await createRole(db, 'clerks');
  await grant(db, 'R', clerks, [...pageWorkCodes('FuzzOrders'), ...controls.map((c) => bizPermission.fieldEdit('FuzzOrders', c.code))]);
  await createUser(db, 'clerk', { roles: [clerks] });
  const codes = controls.map((c) => c.code);
  return {
    app,
    tokens: { anonymous: null, clerk: await app.login('clerk', FIXTURE_PASSWORD), admin },
    credentials: { admin: ['admin', TEST_ADMIN_PASSWORD], clerk: ['clerk', FIXTURE_PASSWORD] },
    known: {
      pageid: [page.id],
      id: [recordId],
      ids: [[recordId]],
      viewid: [orders.id, orders.code],
      datacontrolid: controls.map((c) => c.id),
      fieldcodes: codes,
      key: codes,
      culture: ['zh-CN', 'en-US'],
      'field:name': ['text', 'second'],
      'field:amount': ['1.25', 3],
      'field:qty': [1, 2],
      'field:day': ['2026-01-02', '2026-11-25T08:00:00Z'],
      'field:kind': ['a', 'b'],
      'field:tags': [['x'], ['x', 'y']],
      'field:done': [true, false],
    },
  };
}

async function send(target: FuzzTarget, caller: string, request: FuzzRequest): Promise<FuzzOutcome> {
  const call = () => target.app.call(target.tokens[caller] ?? null, request.options);
  let response = await call();
  // A request may end the caller's own session (log out, revoke): sign in again and go on.
  if (response.statusCode === 401 && caller !== 'anonymous') {
    const [user, password] = target.credentials[caller]!;
    target.tokens[caller] = await target.app.login(user, password);
    response = await call();
  }
  return { request, caller, response };
}

export const FUZZ_CALLERS = ['anonymous', 'clerk', 'admin'] as const;

/**
 * Every operation, as every caller: `wellFormed` conforming requests and `hostile` ones each. The
 * operations that end sessions or sign-ins go last, so they do not starve the others.
 */
export async function runFuzz(target: FuzzTarget, options: { seed: number; wellFormed: number; hostile: number }): Promise<FuzzOutcome[]> {
  const doc = target.app.app.swagger() as unknown as Parameters<typeof operationsOf>[0] & { components?: { schemas?: Record<string, Schema> } };
  const operations = operationsOf(doc);
  const resolve = (ref: string) => doc.components?.schemas?.[ref.split('/').pop()!];
  const rng = prng(options.seed);
  const ending = (path: string) => /logout|revoke|sessions|password|lock/i.test(path);
  const ordered = [...operations.filter((o) => !ending(o.path)), ...operations.filter((o) => ending(o.path))];
  const outcomes: FuzzOutcome[] = [];
  for (const operation of ordered) {
    for (const caller of FUZZ_CALLERS) {
      for (let i = 0; i < options.wellFormed + options.hostile; i++) {
        outcomes.push(await send(target, caller, requestFor(operation, { rng, known: target.known, hostile: i >= options.wellFormed, resolve })));
      }
    }
  }
  return outcomes;
}

/** Answers by caller, kind of request and status. */
export function fuzzSummary(outcomes: FuzzOutcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) {
    const key = `${o.caller} ${o.request.hostile ? 'hostile' : 'well-formed'} ${o.response.statusCode}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort().map(([k, n]) => `${k}: ${n}`).join('\n');
}
