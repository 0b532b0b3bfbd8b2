/*
 * The data factory (`/dataSet/storedProcedure`): PL/pgSQL functions in the product's database,
 * schema `factory`. Saving a definition (re)creates its function in the same transaction as the
 * definition's row and version, so a body PostgreSQL does not accept saves nothing. Every save is
 * a numbered version; a rollback saves an older version's content as the next one.
 */
import {
  factoryValue,
  FACTORY_TYPES,
  procedureText,
  FACTORY_IDENTIFIER,
  ZProcedureParameter,
  ZProcedureReturns,
  ZRoutine,
  type TProcedure,
  type TProcedureDefinition,
  type TProcedureDiff,
  type TProcedureInput,
  type TProcedureList,
  type TProcedureQuery,
  type TProcedureVersionList,
  type TUpdateProcedureInput,
} from '@tessera/core/contracts/data-factory';
import { FACTORY_PROCEDURE_GROUP } from '@tessera/core/contracts/authorization';
import { SQL_SOURCE_KIND_NAMES, type TSqlSourceKind } from '@tessera/core/contracts/data-sources';
import { factoryProcedurePermission, P } from '@tessera/core/contracts/permissions';
import { lineDiff } from '@tessera/core/helpers/line-diff';
import { z } from 'zod';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, DataFactoryProceduresTable } from '../../db/schema.ts';
import { recordAudit, SYSTEM_ACTOR_NAME } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { conflict } from '../../platform/errors.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { pageWindow, parseSorting } from '../../platform/paging.ts';
import { iso, isUniqueViolation } from '../../platform/sql-values.ts';
import { removePermissions, saveOwnedPermission } from '../authorization/index.ts';
import { findRoutineSource, sourceNamesOf } from '../data-sources/index.ts';
import { forbiddenWordOf } from './body-guard.ts';
import { factoryError, factoryInvalid } from './data-factory.messages.ts';
import * as repo from './data-factory.repository.ts';
import { createFunctionSql, dropFunctionSql } from './factory-sql.ts';
import { pagesUsingProcedure } from './procedure-usage.ts';
import { cancelProcedureSchedules } from './schedule-queue.ts';

export const ENTITY_TYPE = 'DataFactoryProcedure';
export type ProcedureRow = Selectable<DataFactoryProceduresTable>;

const ZParameters = z.array(ZProcedureParameter);

export const definitionOf = (r: Pick<ProcedureRow, 'parameters' | 'returns' | 'body' | 'routine'>): TProcedureDefinition => ({
  parameters: ZParameters.parse(r.parameters),
  returns: ZProcedureReturns.parse(r.returns),
  body: r.body,
  routine: r.routine ? ZRoutine.parse(r.routine) : null,
});

function toProcedure(r: ProcedureRow, sourceNames: Map<string, string>): TProcedure {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    description: r.description,
    ...definitionOf(r),
    sourceId: r.source_id,
    sourceName: r.source_id ? (sourceNames.get(r.source_id) ?? null) : null,
    permissionCode: factoryProcedurePermission(r.id),
    timeoutSeconds: r.timeout_seconds,
    rowCap: r.row_cap,
    version: r.version,
    concurrencyStamp: r.concurrency_stamp,
    creationTime: iso(r.creation_time)!,
    creatorName: r.creator_name,
    lastModificationTime: iso(r.last_modification_time),
    lastModifierName: r.last_modifier_name,
  };
}

export const actorName = (ctx: ServiceContext) => ctx.user?.userName ?? (ctx.isSystem ? SYSTEM_ACTOR_NAME : null);

// ---------------------------------------------------------------- reading

const SORTING = { code: 'code', name: 'name', version: 'version', creationtime: 'creation_time', lastmodificationtime: 'last_modification_time' } as const satisfies Record<string, repo.ProcedureSortColumn>;

export async function listProcedures(ctx: ServiceContext, query: TProcedureQuery): Promise<TProcedureList> {
  const text = query.Filter?.trim() || undefined;
  const sort = parseSorting<repo.ProcedureSortColumn>(query.Sorting, SORTING, { column: 'creation_time', direction: 'desc' });
  const [totalCount, rows] = await Promise.all([repo.countProcedures(ctx.db, text), repo.listProcedures(ctx.db, text, sort, pageWindow(query))]);
  const names = await sourceNamesOf(ctx, rows.flatMap((r) => (r.source_id ? [r.source_id] : [])));
  return {
    items: rows.map((r) => {
      const { body: _body, ...rest } = toProcedure(r, names);
      return rest;
    }),
    totalCount,
  };
}

export async function requireProcedure(ctx: ServiceContext, id: string, db: Kysely<Database> = ctx.db, options: { forUpdate?: boolean } = {}): Promise<ProcedureRow> {
  const row = await repo.findProcedure(db, id, options);
  if (!row) throw factoryError(ctx, 404, 'NotFound', 'procedure.notFound', {}, { details: { id } });
  return row;
}

async function procedureOf(ctx: ServiceContext, row: ProcedureRow): Promise<TProcedure> {
  return toProcedure(row, row.source_id ? await sourceNamesOf(ctx, [row.source_id]) : new Map());
}

export async function getProcedure(ctx: ServiceContext, id: string): Promise<TProcedure> {
  return procedureOf(ctx, await requireProcedure(ctx, id));
}

// ---------------------------------------------------------------- checking

/** The source of an external routine: a database source that exists (its kind), else a 400. */
async function routineSourceKind(ctx: ServiceContext, sourceId: string): Promise<TSqlSourceKind> {
  const source = await findRoutineSource(ctx, sourceId);
  if (!source) throw factoryInvalid(ctx, 'procedure.sourceMissing', ['sourceId']);
  return source.kind;
}


/**
 * The rules zod cannot say. Every procedure: names once, defaults of their type. A factory
 * function: a body of allowed words, lower-case names, no INOUT, no refcursor, OUT only without a table. An
 * external routine (`sourceKind`): a routine named, no body, no table declared (its result sets
 * are what it answers), a function's parameters IN only.
 */
function checkDefinition(ctx: ServiceContext, def: TProcedureDefinition, sourceKind: TSqlSourceKind | null): TProcedureDefinition {
  if (sourceKind) {
    if (!def.routine) throw factoryInvalid(ctx, 'procedure.routineRequired', ['routine']);
    if (def.routine.kind === 'function' && def.parameters.some((p) => p.mode !== 'in')) throw factoryInvalid(ctx, 'procedure.functionOuts', ['parameters'], { kind: SQL_SOURCE_KIND_NAMES[sourceKind] });
    def = { ...def, body: '', returns: { kind: 'void' } };
  } else {
    if (def.routine) throw factoryInvalid(ctx, 'procedure.routineWithoutSource', ['routine']);
    if (!def.body.trim()) throw factoryInvalid(ctx, 'procedure.bodyRequired', ['body']);
    def.parameters.forEach((p, i) => {
      if (!FACTORY_IDENTIFIER.test(p.name)) throw factoryInvalid(ctx, 'procedure.factoryName', [`parameters.${i}.name`], { name: p.name });
      if (p.mode === 'inout') throw factoryInvalid(ctx, 'procedure.inoutFactory', [`parameters.${i}.mode`]);
      if (p.type === 'refcursor') throw factoryInvalid(ctx, 'procedure.refcursorFactory', [`parameters.${i}.type`]);
    });
    if (def.returns.kind === 'table') {
      def.returns.columns.forEach((c, i) => {
        if (c.type === 'refcursor') throw factoryInvalid(ctx, 'procedure.refcursorFactory', [`returns.columns.${i}.type`]);
      });
    }
  }
  const seen = new Set<string>();
  const names = [...def.parameters.map((p) => p.name), ...(def.returns.kind === 'table' ? def.returns.columns.map((c) => c.name) : [])];
  for (const name of names) {
    if (seen.has(name)) throw factoryInvalid(ctx, 'procedure.nameTwice', ['parameters'], { name });
    seen.add(name);
  }
  if (def.returns.kind === 'table' && def.parameters.some((p) => p.mode === 'out')) throw factoryInvalid(ctx, 'procedure.outWithTable', ['parameters']);
  def.parameters.forEach((p, i) => {
    if (p.mode !== 'out' && !factoryValue(p.type, p.defaultValue).ok) throw factoryInvalid(ctx, 'procedure.defaultType', [`parameters.${i}.defaultValue`], { name: p.name, type: FACTORY_TYPES[p.type] });
  });
  const word = sourceKind ? null : forbiddenWordOf(def.body);
  if (word) throw factoryInvalid(ctx, 'procedure.forbidden', ['body'], { word });
  return def;
}

const isDatabaseError = (err: unknown): err is { code: string; message: string } =>
  typeof (err as { code?: unknown } | null)?.code === 'string' && /^[0-9A-Z]{5}$/.test((err as { code: string }).code);

/** Drops the function of `oldCode` (when there is one) and creates the definition's; PostgreSQL's refusal is a 400 on the body. */
async function makeFunction(ctx: ServiceContext, trx: Transaction<Database>, oldCode: string | null, code: string, def: TProcedureDefinition) {
  if (oldCode) await dropFunctionSql(oldCode).execute(trx);
  try {
    await createFunctionSql(code, def).execute(trx);
  } catch (err) {
    if (!isDatabaseError(err)) throw err;
    throw factoryError(ctx, 400, 'DataFactory.CompileFailed', 'procedure.compileFailed', { reason: err.message.slice(0, 1_000) }, { members: ['body'] });
  }
}

const definitionColumns = (def: TProcedureDefinition) => ({ parameters: JSON.stringify(def.parameters), returns: JSON.stringify(def.returns), body: def.body, routine: def.routine ? JSON.stringify(def.routine) : null });

/**
 * The procedure's own code (who may run it), named after it, under "run data factory procedures"
 * in the data factory's group (ticking it on the grant screen ticks that too); in the caller's transaction.
 */
const saveRunPermission = (trx: Kysely<Database>, id: string, name: string) =>
  saveOwnedPermission(trx, {
    name: factoryProcedurePermission(id),
    group: { name: FACTORY_PROCEDURE_GROUP, displayName: { 'zh-CN': '数据工厂', 'en-US': 'Data factory' } },
    displayName: { 'zh-CN': `运行“${name}”`, 'en-US': `Run "${name}"` },
    parentName: P.DataFactoryRun,
  });

const codeTaken = (ctx: ServiceContext, code: string) => factoryInvalid(ctx, 'procedure.codeTaken', ['code'], { code });

async function insertVersion(trx: Transaction<Database>, ctx: ServiceContext, id: string, version: number, def: TProcedureDefinition, restoredFrom: number | null) {
  await repo.insertVersion(trx, { procedure_id: id, version, ...definitionColumns(def), restored_from: restoredFrom, creator_id: ctx.user?.id ?? null, creator_name: actorName(ctx), creation_time: ctx.now() });
}

const auditOf = (p: Pick<TProcedure, 'code' | 'name' | 'version' | 'parameters' | 'returns' | 'sourceId' | 'routine'>) => ({
  code: p.code,
  name: p.name,
  version: p.version,
  parameters: p.parameters.map((x) => `${x.mode} ${x.name} ${x.type}`),
  returns: p.returns.kind,
  ...(p.sourceId && p.routine ? { sourceId: p.sourceId, routine: `${p.routine.kind} ${p.routine.schema}.${p.routine.name}` } : {}),
});

// ---------------------------------------------------------------- writing

export async function createProcedure(ctx: ServiceContext, input: TProcedureInput): Promise<TProcedure> {
  const sourceKind = input.sourceId ? await routineSourceKind(ctx, input.sourceId) : null;
  const def = checkDefinition(ctx, { parameters: input.parameters, returns: input.returns, body: input.body, routine: input.routine }, sourceKind);
  if (await repo.findProcedureByCode(ctx.db, input.code)) throw codeTaken(ctx, input.code);
  const id = uuidv7();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.insertProcedure(trx, {
        id,
        code: input.code,
        name: input.name,
        description: input.description,
        ...definitionColumns(def),
        source_id: input.sourceId,
        timeout_seconds: input.timeoutSeconds,
        row_cap: input.rowCap,
        version: 1,
        concurrency_stamp: uuidv7(),
        creation_time: ctx.now(),
        creator_id: ctx.user?.id ?? null,
        creator_name: actorName(ctx),
      });
      await insertVersion(trx, ctx, id, 1, def, null);
      await saveRunPermission(trx, id, input.name);
      if (!input.sourceId) await makeFunction(ctx, trx, null, input.code, def);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw codeTaken(ctx, input.code);
    throw err;
  }
  const created = await getProcedure(ctx, id);
  await recordAudit(ctx, 'Created', { entityType: ENTITY_TYPE, entityId: id, details: { after: auditOf(created) } });
  return created;
}

/** Saves a definition as the next version, under the row's lock; the stamp must match. */
async function saveVersion(ctx: ServiceContext, id: string, stamp: string, changes: Omit<TProcedureInput, keyof TProcedureDefinition | 'sourceId'>, given: TProcedureDefinition, restoredFrom: number | null, sourceId?: string | null): Promise<{ before: TProcedure; after: TProcedure }> {
  const current = await requireProcedure(ctx, id);
  if (sourceId !== undefined && sourceId !== current.source_id) throw factoryInvalid(ctx, 'procedure.sourceFixed', ['sourceId']);
  const def = checkDefinition(ctx, given, current.source_id ? await routineSourceKind(ctx, current.source_id) : null);
  let before: ProcedureRow | undefined;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      before = await requireProcedure(ctx, id, trx, { forUpdate: true });
      if (before.concurrency_stamp !== stamp) throw conflict({ id, concurrencyStamp: before.concurrency_stamp });
      if (changes.code !== before.code && (await repo.findProcedureByCode(trx, changes.code))) throw codeTaken(ctx, changes.code);
      const version = before.version + 1;
      await repo.updateProcedureIfStamp(trx, id, stamp, {
        code: changes.code,
        name: changes.name,
        description: changes.description,
        ...definitionColumns(def),
        timeout_seconds: changes.timeoutSeconds,
        row_cap: changes.rowCap,
        version,
        concurrency_stamp: uuidv7(),
        last_modification_time: ctx.now(),
        last_modifier_id: ctx.user?.id ?? null,
        last_modifier_name: actorName(ctx),
      });
      await insertVersion(trx, ctx, id, version, def, restoredFrom);
      if (changes.name !== before.name) await saveRunPermission(trx, id, changes.name);
      if (!before.source_id) await makeFunction(ctx, trx, before.code, changes.code, def);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw codeTaken(ctx, changes.code);
    throw err;
  }
  return { before: await procedureOf(ctx, before!), after: await getProcedure(ctx, id) };
}

export async function updateProcedure(ctx: ServiceContext, id: string, input: TUpdateProcedureInput): Promise<TProcedure> {
  const { concurrencyStamp, parameters, returns, body, routine, sourceId, ...changes } = input;
  const { before, after } = await saveVersion(ctx, id, concurrencyStamp, changes, { parameters, returns, body, routine }, null, sourceId);
  await recordAudit(ctx, 'Updated', { entityType: ENTITY_TYPE, entityId: id, details: { before: auditOf(before), after: auditOf(after) } });
  return after;
}

export async function rollbackProcedure(ctx: ServiceContext, id: string, version: number, concurrencyStamp: string): Promise<TProcedure> {
  const row = await requireProcedure(ctx, id);
  const old = await repo.findVersion(ctx.db, id, version);
  if (!old) throw factoryError(ctx, 404, 'NotFound', 'procedure.versionNotFound', { version }, { details: { id, version } });
  const changes = { code: row.code, name: row.name, description: row.description, timeoutSeconds: row.timeout_seconds, rowCap: row.row_cap };
  const { before, after } = await saveVersion(ctx, id, concurrencyStamp, changes, definitionOf(old), version);
  await recordAudit(ctx, 'RolledBack', { entityType: ENTITY_TYPE, entityId: id, details: { restoredFrom: version, before: auditOf(before), after: auditOf(after) } });
  return after;
}

export async function deleteProcedure(ctx: ServiceContext, id: string): Promise<void> {
  let existing: ProcedureRow | undefined;
  await ctx.db.transaction().execute(async (trx) => {
    existing = await requireProcedure(ctx, id, trx, { forUpdate: true });
    const pages = await pagesUsingProcedure(trx, id);
    if (pages.length) throw factoryError(ctx, 400, 'DataFactory.ProcedureInUse', 'procedure.inUse', { pages: pages.join('、') }, { details: { pages } });
    if (!existing.source_id) await dropFunctionSql(existing.code).execute(trx);
    await cancelProcedureSchedules(trx, id);
    await repo.deleteProcedure(trx, id);
    await removePermissions(trx, [factoryProcedurePermission(id)]);
  });
  ctx.caches.auth.invalidateAccess();
  await recordAudit(ctx, 'Deleted', { entityType: ENTITY_TYPE, entityId: id, details: { before: auditOf(toProcedure(existing!, new Map())) } });
}

// ---------------------------------------------------------------- versions

export async function listProcedureVersions(ctx: ServiceContext, id: string): Promise<TProcedureVersionList> {
  await requireProcedure(ctx, id);
  const rows = await repo.listVersions(ctx.db, id);
  return {
    items: rows.map((v) => ({ version: v.version, ...definitionOf(v), creationTime: iso(v.creation_time)!, creatorName: v.creator_name, restoredFrom: v.restored_from })),
  };
}

export async function diffProcedureVersions(ctx: ServiceContext, id: string, from: number, to: number): Promise<TProcedureDiff> {
  const row = await requireProcedure(ctx, id);
  const [a, b] = await Promise.all([repo.findVersion(ctx.db, id, from), repo.findVersion(ctx.db, id, to)]);
  if (!a) throw factoryError(ctx, 404, 'NotFound', 'procedure.versionNotFound', { version: from }, { details: { id, version: from } });
  if (!b) throw factoryError(ctx, 404, 'NotFound', 'procedure.versionNotFound', { version: to }, { details: { id, version: to } });
  const lines = lineDiff(procedureText(row.code, definitionOf(a)), procedureText(row.code, definitionOf(b)));
  return { from, to, lines, added: lines.filter((l) => l.kind === 'added').length, removed: lines.filter((l) => l.kind === 'removed').length };
}
