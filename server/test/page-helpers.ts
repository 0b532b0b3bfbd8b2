import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import type { TDataControl, TPageDefinition, TView } from '@tessera/core/page-definition';
import type { TestApp } from './test-app.ts';
import { bizTable, bizTableName, nextCreationTime } from '../src/modules/pages/index.ts';

export const URL = '/api/app/page-definition';
export const title = (zh: string, en = zh) => ({ 'zh-CN': zh, 'en-US': en });

export function control(code: string, controlType: number, extra: Partial<TDataControl> = {}): TDataControl {
  return { id: randomUUID(), code, title: code, controlType, isDisplayed: true, isEdit: true, ...extra };
}

export function view(code: string, controls: TDataControl[], extra: Partial<TView> = {}): TView {
  return { id: randomUUID(), code, title: code, viewType: 1, dataControls: controls, viewButtons: [], viewControls: [], ...extra };
}

/** A master form with a child grid nested in it. */
export function masterDetail(masterControls: TDataControl[], childControls: TDataControl[]): TPageDefinition {
  const master = view('Master', masterControls);
  const child = view('Lines', childControls, { viewType: 2, parentViewControlId: master.id, associateForeignKeyCode: 'ParentViewDataId' });
  master.viewControls = [child];
  return { viewControls: [master], pageButtons: [], dataLinkages: [] };
}

export function pagesApi(t: TestApp, token: () => string) {
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, as = token()) =>
    t.call(as, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
  const ok = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const res = await call(method, url, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  return {
    call,
    ok,
    create: (code: string, definition?: TPageDefinition) => ok('POST', URL, { code, name: title(code), definition }),
    get: (id: string) => ok('GET', `${URL}/${id}`),
    /** Saves the draft with the page's current stamp. */
    async save(id: string, definition: TPageDefinition) {
      const page = await ok('GET', `${URL}/${id}`);
      return ok('PUT', `${URL}/${id}`, { definition, concurrencyStamp: page.concurrencyStamp });
    },
    publish: (id: string, body: object = {}) => call('POST', `${URL}/${id}/publish`, body),
    plan: (id: string) => ok('GET', `${URL}/${id}/publish-plan`),
  };
}

export interface ColumnInfo {
  column_name: string;
  data_type: string;
}

/** The live columns of a view's table (name → type). */
export async function columnsOf(db: Kysely<any>, viewId: string): Promise<Record<string, string>> {
  const { rows } = await sql<ColumnInfo>`
    select column_name, data_type from information_schema.columns
    where table_schema = 'biz' and table_name = ${bizTableName(viewId)} order by ordinal_position`.execute(db);
  return Object.fromEntries(rows.map((r) => [r.column_name, r.data_type]));
}

export async function insertRow(db: Kysely<any>, viewId: string, values: Record<string, unknown>, parentId: string | null = null): Promise<string> {
  const id = randomUUID();
  // As the runtime writes them: two inserts within one tick of the database's clock would otherwise
  // tie, and rows (and samples) listed "in creation order" would come in random id order.
  const entries = Object.entries({ Id: id, ParentViewDataId: parentId, ConcurrencyStamp: randomUUID(), CreationTime: nextCreationTime(), ...values });
  await sql`insert into ${bizTable(bizTableName(viewId))} (${sql.join(entries.map(([k]) => sql.id(k)))}) values (${sql.join(entries.map(([, v]) => v))})`.execute(db);
  return id;
}

export async function rowsOf(db: Kysely<any>, viewId: string, columns: string[]): Promise<Record<string, unknown>[]> {
  const { rows } = await sql<Record<string, unknown>>`
    select ${sql.join(columns.map((c) => sql`${sql.id(c)}::text as ${sql.id(c)}`))} from ${bizTable(bizTableName(viewId))} order by "CreationTime", "Id"`.execute(db);
  return rows;
}

/** A snapshot of everything in schema `biz`: tables and their columns with types. */
export async function bizSnapshot(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ t: string; c: string; d: string }>`
    select table_name as t, column_name as c, data_type as d from information_schema.columns
    where table_schema = 'biz' order by table_name, column_name`.execute(db);
  return rows.map((r) => `${r.t}.${r.c}:${r.d}`).join('\n');
}
