import { createHash } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { TPageDefinition } from '@tessera/core/page-definition';
import type { THiddenColumn, TPublishBlocker, TPublishChange } from '@tessera/core/contracts/pages';
import {
  bizTable,
  bizTableName,
  bizViews,
  ident,
  isSystemColumn,
  SYSTEM_COLUMNS,
  type BizColumnType,
  type BizView,
} from './biz-schema.ts';
import { readLiveTables, type LiveTable } from './live-schema.ts';
import type { Translate } from './pages.messages.ts';

// The difference between a design and the live `biz` schema, as DDL steps plus what the designer
// must know: blockers (values that would not survive, removed data) and hidden columns.
// Identifiers in the SQL come only from validated codes and generated names (`ident`, `bizTable`).

/** One DDL step; applied in the order of `STEP_ORDER`. */
export type Step =
  | { op: 'dropFk'; table: string; constraint: string }
  | { op: 'dropTable'; table: string }
  | { op: 'createTable'; table: string; columns: { name: string; type: BizColumnType }[] }
  | { op: 'dropColumn'; table: string; column: string }
  | { op: 'renameColumn'; table: string; from: string; to: string }
  | { op: 'alterTable'; table: string; adds: { name: string; type: BizColumnType }[]; alters: { name: string; type: BizColumnType; using: RawBuilder<unknown> }[] }
  | { op: 'addFk'; table: string; parentTable: string }
  | { op: 'createIndex'; table: string; column: string };

export interface SchemaPlan {
  steps: Step[];
  changes: TPublishChange[];
  blockers: TPublishBlocker[];
  /** The hidden columns and tables after this publish. */
  hidden: THiddenColumn[];
}

/** What earlier versions tell about the live tables (the live schema itself is read from pg_catalog). */
export interface PublishHistory {
  /** Hidden columns and tables of the latest version. */
  hidden: THiddenColumn[];
  /** Per view id: control id → its latest column name, and column name → latest control id. */
  columns: Map<string, { byControl: Map<string, string>; byColumn: Map<string, string> }>;
  /** Every table any version published: table → view id and latest view code. */
  tables: Map<string, { viewId: string; code: string }>;
}

/** Folds the versions (any order) into what publishing needs; later versions win. */
export function publishHistory(versions: { version: number; definition: TPageDefinition; hidden: THiddenColumn[] }[]): PublishHistory {
  const sorted = [...versions].sort((a, b) => a.version - b.version);
  const columns: PublishHistory['columns'] = new Map();
  const tables: PublishHistory['tables'] = new Map();
  for (const v of sorted) {
    for (const view of bizViews(v.definition)) {
      tables.set(view.table, { viewId: view.viewId, code: view.code });
      let entry = columns.get(view.viewId);
      if (!entry) columns.set(view.viewId, (entry = { byControl: new Map(), byColumn: new Map() }));
      for (const c of view.columns) {
        entry.byControl.set(c.controlId, c.code);
        entry.byColumn.set(c.code, c.controlId);
      }
    }
    for (const h of v.hidden) if (!tables.has(h.table)) tables.set(h.table, { viewId: h.viewId, code: h.table });
  }
  return { hidden: sorted.at(-1)?.hidden ?? [], columns, tables };
}

const TYPE_SQL: Record<BizColumnType, RawBuilder<unknown>> = {
  text: sql`text`,
  bigint: sql`bigint`,
  numeric: sql`numeric`,
  timestamptz: sql`timestamptz`,
  boolean: sql`boolean`,
  jsonb: sql`jsonb`,
};
const TRY_CAST: Partial<Record<BizColumnType, (v: RawBuilder<unknown>) => RawBuilder<unknown>>> = {
  bigint: (v) => sql`pages_try_bigint(${v})`,
  numeric: (v) => sql`pages_try_numeric(${v})`,
  timestamptz: (v) => sql`pages_try_timestamptz(${v})`,
  boolean: (v) => sql`pages_try_boolean(${v})`,
};

export interface Conversion {
  /** false: every value converts; true: a dry run counts the values that do not. */
  narrowing: boolean;
  using: RawBuilder<unknown>;
  /** Rows whose value would not convert (null when none can fail). */
  fails: RawBuilder<unknown> | null;
}

/** How a column of type `from` becomes `to` (text takes anything; bigint → numeric; …). */
export function conversion(column: string, from: string, to: BizColumnType): Conversion {
  const c = ident(column);
  const widen = (using: RawBuilder<unknown>): Conversion => ({ narrowing: false, using, fails: null });
  if (to === 'text') return widen(from === 'jsonb' ? sql`${c} #>> '{}'` : sql`${c}::text`);
  if (to === 'jsonb') {
    if (from === 'text') {
      return widen(sql`case when nullif(btrim(${c}), '') is null then null
        when btrim(${c}) ~ '^[\\[{]' and pages_try_jsonb(${c}) is not null then ${c}::jsonb else to_jsonb(${c}) end`);
    }
    return widen(sql`to_jsonb(${c})`);
  }
  if (from === 'bigint' && to === 'numeric') return widen(sql`${c}::numeric`);
  if (from === 'boolean' && (to === 'bigint' || to === 'numeric')) return widen(sql`${c}::integer::${TYPE_SQL[to]}`);
  if (from === 'text' || from === 'jsonb') {
    const text = from === 'text' ? sql`nullif(btrim(${c}), '')` : sql`nullif(btrim(${c} #>> '{}'), '')`;
    const tryCast = TRY_CAST[to]!;
    return { narrowing: true, using: tryCast(text), fails: sql`${text} is not null and ${tryCast(text)} is null` };
  }
  if (from === 'numeric' && to === 'bigint') {
    return {
      narrowing: true,
      using: sql`${c}::bigint`,
      fails: sql`${c} is not null and (${c} <> trunc(${c}) or ${c} < -9223372036854775808 or ${c} > 9223372036854775807)`,
    };
  }
  if ((from === 'bigint' || from === 'numeric') && to === 'boolean') {
    return { narrowing: true, using: sql`(${c} <> 0)`, fails: sql`${c} is not null and ${c} not in (0, 1)` };
  }
  // No sensible conversion (a date into a number …): only an empty column can change.
  return { narrowing: true, using: sql`null::${TYPE_SQL[to]}`, fails: sql`${c} is not null` };
}

/** Index names: the table name plus a hash of the column (identifiers stay under 63 characters). */
export const indexName = (table: string, column: string) => `${table}_${createHash('sha256').update(column).digest('hex').slice(0, 10)}_ix`;
export const parentFkName = (table: string) => `${table}_parent_fk`;

const SAMPLE_ROWS = 5;

/** Computes the plan. Reads the live schema and, for risky changes, counts the affected rows. */
export async function planSchema(
  db: Kysely<any>,
  design: TPageDefinition,
  history: PublishHistory,
  nextVersion: number,
  options: { confirmHideColumns: boolean; t: Translate },
): Promise<SchemaPlan> {
  const { t } = options;
  const views = bizViews(design);
  const designTables = new Set(views.map((v) => v.table));
  const previousHidden = history.hidden;

  // Every table this page may own: its views now, in any earlier version, and those kept hidden.
  const candidates = new Set<string>([...designTables, ...history.tables.keys()]);
  for (const h of previousHidden) candidates.add(h.table);
  const live = await readLiveTables(db, [...candidates]);

  const steps: Step[] = [];
  const changes: TPublishChange[] = [];
  const blockers: TPublishBlocker[] = [];
  const hidden: THiddenColumn[] = [];
  const tableOfView = new Map(views.map((v) => [v.viewId, v.table]));

  // ---- views whose table is gone from the design
  const removedTables = [...candidates].filter((table) => !designTables.has(table) && live.has(table));
  const keptTables = new Set<string>();
  const removedInfo = new Map<string, { viewId: string; code: string; parentTable: string | null; rows: number }>();
  for (const table of removedTables) {
    const known = history.tables.get(table);
    const rows = Number((await sql<{ n: string }>`select count(*) as n from ${bizTable(table)}`.execute(db)).rows[0]!.n);
    const parentTable = live.get(table)!.parentFk?.refTable ?? null;
    removedInfo.set(table, { viewId: known?.viewId ?? hiddenViewId(previousHidden, table), code: known?.code ?? table, parentTable, rows });
  }
  for (const [table, info] of removedInfo) {
    if (info.rows === 0) continue;
    // Keep it and every removed ancestor it points to (its foreign key needs them).
    for (let at: string | null = table; at && removedInfo.has(at) && !keptTables.has(at); at = removedInfo.get(at)!.parentTable) keptTables.add(at);
  }
  for (const [table, info] of removedInfo) {
    if (!keptTables.has(table)) continue;
    const wasHidden = previousHidden.find((h) => h.table === table && h.column === null);
    if (wasHidden) {
      hidden.push({ ...wasHidden, rowCount: info.rows });
      continue;
    }
    if (!options.confirmHideColumns) {
      blockers.push({
        kind: 'removeWithData',
        message: t('plan.removeWithData', { what: t('plan.table', { view: info.code }), count: info.rows }),
        viewId: info.viewId,
        controlId: null,
        table,
        column: null,
        rowCount: info.rows,
      });
    }
    hidden.push({ viewId: info.viewId, controlId: null, table, column: null, rowCount: info.rows, hiddenInVersion: nextVersion });
    changes.push({ kind: 'hideTable', viewId: info.viewId, table, rowCount: info.rows });
  }
  // Drop empty removed tables, children before parents.
  const dropOrder = [...removedInfo.keys()].filter((table) => !keptTables.has(table));
  dropOrder.sort((a, b) => depth(b, removedInfo) - depth(a, removedInfo));
  for (const table of dropOrder) {
    // Foreign keys of kept tables never point here (ancestors of kept tables are kept).
    steps.push({ op: 'dropTable', table });
    changes.push({ kind: 'dropTable', viewId: removedInfo.get(table)!.viewId, table });
  }

  // ---- views of the design
  const ordered = parentFirst(views);
  for (const view of ordered) {
    const table = live.get(view.table);
    const parentTable = view.parentViewId ? (tableOfView.get(view.parentViewId) ?? null) : null;
    if (!table) {
      steps.push({ op: 'createTable', table: view.table, columns: view.columns.map((c) => ({ name: c.code, type: c.sqlType })) });
      changes.push({ kind: 'createTable', viewId: view.viewId, viewCode: view.code, table: view.table, columns: view.columns.length });
      if (parentTable) {
        steps.push({ op: 'addFk', table: view.table, parentTable });
        steps.push({ op: 'createIndex', table: view.table, column: 'ParentViewDataId' });
      }
      for (const c of view.columns) {
        if (c.tableFieldType === 6) steps.push({ op: 'createIndex', table: view.table, column: c.code });
      }
      continue;
    }
    await planExistingTable(db, view, table, parentTable, history, nextVersion, options, { steps, changes, blockers, hidden });
  }
  return { steps, changes, blockers, hidden };
}

function hiddenViewId(hidden: THiddenColumn[], table: string): string {
  return hidden.find((h) => h.table === table)?.viewId ?? table;
}

function depth(table: string, info: Map<string, { parentTable: string | null }>): number {
  let d = 0;
  for (let at = info.get(table)?.parentTable ?? null; at && d < 100; at = info.get(at)?.parentTable ?? null) d++;
  return d;
}

/** Parents before their children (a child's foreign key needs the parent table). */
function parentFirst(views: BizView[]): BizView[] {
  const byId = new Map(views.map((v) => [v.viewId, v]));
  const out: BizView[] = [];
  const done = new Set<string>();
  const visit = (v: BizView, guard: number) => {
    if (done.has(v.viewId) || guard > views.length) return;
    const parent = v.parentViewId ? byId.get(v.parentViewId) : undefined;
    if (parent) visit(parent, guard + 1);
    if (!done.has(v.viewId)) {
      done.add(v.viewId);
      out.push(v);
    }
  };
  for (const v of views) visit(v, 0);
  return out;
}

async function planExistingTable(
  db: Kysely<any>,
  view: BizView,
  table: LiveTable,
  parentTable: string | null,
  history: PublishHistory,
  nextVersion: number,
  options: { confirmHideColumns: boolean; t: Translate },
  out: Pick<SchemaPlan, 'steps' | 'changes' | 'blockers' | 'hidden'>,
) {
  const { t } = options;
  const name = view.table;
  const liveColumns = new Map([...table.columns].filter(([column]) => !isSystemColumn(column)));
  const known = history.columns.get(view.viewId);
  const prevColumnOf = new Map<string, string>(known?.byControl ?? []);
  const hiddenHere = history.hidden.filter((h) => h.table === name && h.column !== null);
  for (const h of hiddenHere) if (h.controlId) prevColumnOf.set(h.controlId, h.column!);

  // 1. which live column each control continues: its previous column (same control id), else a
  //    free live column with its code (a control deleted and added again keeps the data).
  const source = new Map<string, string>();
  const claimed = new Set<string>();
  for (const c of view.columns) {
    const old = prevColumnOf.get(c.controlId);
    if (old && liveColumns.has(old) && !claimed.has(old)) {
      source.set(c.controlId, old);
      claimed.add(old);
    }
  }
  for (const c of view.columns) {
    if (source.has(c.controlId)) continue;
    if (liveColumns.has(c.code) && !claimed.has(c.code)) {
      source.set(c.controlId, c.code);
      claimed.add(c.code);
    }
  }

  // 2. live columns no control continues: drop when empty, otherwise keep hidden (confirmed).
  const unclaimed = [...liveColumns.keys()].filter((column) => !claimed.has(column));
  const counts = await countValues(db, name, unclaimed);
  const droppedNames = new Set<string>();
  const heldNames = new Set<string>();
  const controlOfColumn = new Map<string, string>(known?.byColumn ?? []);
  for (const h of hiddenHere) if (h.controlId) controlOfColumn.set(h.column!, h.controlId);
  for (const column of unclaimed) {
    const rows = counts.get(column) ?? 0;
    const controlId = controlOfColumn.get(column) ?? null;
    const wasHidden = hiddenHere.find((h) => h.column === column);
    if (rows === 0) {
      out.steps.push({ op: 'dropColumn', table: name, column });
      out.changes.push({ kind: 'dropColumn', viewId: view.viewId, controlId, table: name, column });
      droppedNames.add(column);
      continue;
    }
    heldNames.add(column);
    if (wasHidden) {
      out.hidden.push({ ...wasHidden, rowCount: rows });
      continue;
    }
    if (!options.confirmHideColumns) {
      out.blockers.push({
        kind: 'removeWithData',
        message: t('plan.removeWithData', { what: t('plan.column', { column }), count: rows }),
        viewId: view.viewId,
        controlId,
        table: name,
        column,
        rowCount: rows,
      });
    }
    out.hidden.push({ viewId: view.viewId, controlId, table: name, column, rowCount: rows, hiddenInVersion: nextVersion });
    out.changes.push({ kind: 'hideColumn', viewId: view.viewId, controlId, table: name, column, rowCount: rows });
  }

  // 3. renames (through temporary names when codes swap), additions and type changes.
  const renames: { controlId: string; from: string; to: string }[] = [];
  const adds: { name: string; type: BizColumnType }[] = [];
  const alters: { name: string; type: BizColumnType; using: RawBuilder<unknown> }[] = [];
  for (const c of view.columns) {
    const from = source.get(c.controlId);
    const wasHidden = from ? hiddenHere.find((h) => h.column === from) : undefined;
    if (wasHidden) out.changes.push({ kind: 'unhideColumn', viewId: view.viewId, controlId: c.controlId, table: name, column: c.code });
    if (!from) {
      if (heldNames.has(c.code)) {
        out.blockers.push({ kind: 'conflict', message: t('plan.nameHeld', { column: c.code }), viewId: view.viewId, controlId: c.controlId, table: name, column: c.code });
        continue;
      }
      adds.push({ name: c.code, type: c.sqlType });
      out.changes.push({ kind: 'addColumn', viewId: view.viewId, controlId: c.controlId, table: name, column: c.code, sqlType: c.sqlType });
      if (c.tableFieldType === 6) out.steps.push({ op: 'createIndex', table: name, column: c.code });
      continue;
    }
    if (from !== c.code) {
      if (heldNames.has(c.code)) {
        out.blockers.push({ kind: 'conflict', message: t('plan.nameHeld', { column: c.code }), viewId: view.viewId, controlId: c.controlId, table: name, column: c.code });
        continue;
      }
      renames.push({ controlId: c.controlId, from, to: c.code });
      out.changes.push({ kind: 'renameColumn', viewId: view.viewId, controlId: c.controlId, table: name, from, to: c.code });
    }
    const liveType = liveColumns.get(from)!;
    if (liveType !== c.sqlType) {
      const conv = conversion(from, liveType, c.sqlType);
      if (conv.fails) {
        const failing = await failingRows(db, name, from, conv.fails);
        if (failing.count > 0) {
          out.blockers.push({
            kind: 'narrowing',
            message: t('plan.narrowing', { column: c.code, count: failing.count, from: liveType, to: c.sqlType }),
            viewId: view.viewId,
            controlId: c.controlId,
            column: c.code,
            fromType: liveType,
            toType: c.sqlType,
            failingCount: failing.count,
            samples: failing.samples,
          });
          continue;
        }
      }
      // The USING expression reads the column under its final name (renames run first).
      alters.push({ name: c.code, type: c.sqlType, using: from === c.code ? conv.using : conversion(c.code, liveType, c.sqlType).using });
      out.changes.push({ kind: 'alterType', viewId: view.viewId, controlId: c.controlId, table: name, column: c.code, fromType: liveType, toType: c.sqlType, narrowing: conv.narrowing });
    }
    if (c.tableFieldType === 6 && !table.indexedColumns.has(from)) out.steps.push({ op: 'createIndex', table: name, column: c.code });
  }
  if (renames.length) {
    const finalNames = new Set(renames.map((r) => r.to));
    const needsTemp = renames.some((r) => liveColumns.has(r.to) && !droppedNames.has(r.to)) || renames.some((r) => finalNames.has(r.from));
    if (needsTemp) {
      const taken = new Set([...table.columns.keys()]);
      const temps = renames.map((r, i) => {
        let temp = `tmp_rename_${i}`;
        for (let n = 0; taken.has(temp); n++) temp = `tmp_rename_${i}_${n}`;
        taken.add(temp);
        return temp;
      });
      renames.forEach((r, i) => out.steps.push({ op: 'renameColumn', table: name, from: r.from, to: temps[i]! }));
      renames.forEach((r, i) => out.steps.push({ op: 'renameColumn', table: name, from: temps[i]!, to: r.to }));
    } else {
      for (const r of renames) out.steps.push({ op: 'renameColumn', table: name, from: r.from, to: r.to });
    }
  }
  if (adds.length || alters.length) out.steps.push({ op: 'alterTable', table: name, adds, alters });

  // 4. the parent foreign key.
  const liveParent = table.parentFk?.refTable ?? null;
  if (liveParent !== parentTable) {
    if (parentTable) {
      // Rows already pointing at records of another table cannot follow a new parent.
      const linked = await sql<{ n: string }>`select count(*) as n from ${bizTable(name)} where "ParentViewDataId" is not null`.execute(db);
      const rows = Number(linked.rows[0]!.n);
      if (rows > 0) {
        out.blockers.push({ kind: 'conflict', message: t('plan.reparent', { view: view.code, count: rows }), viewId: view.viewId, controlId: null, table: name, column: null });
        return;
      }
    }
    if (table.parentFk) out.steps.push({ op: 'dropFk', table: name, constraint: table.parentFk.name });
    if (parentTable) out.steps.push({ op: 'addFk', table: name, parentTable });
    if (parentTable && !table.indexedColumns.has('ParentViewDataId')) out.steps.push({ op: 'createIndex', table: name, column: 'ParentViewDataId' });
    out.changes.push({ kind: 'setParent', viewId: view.viewId, table: name, parentTable });
  }
}

/** Per column, the rows holding a value (not null, not empty text). One query per table. */
async function countValues(db: Kysely<any>, table: string, columns: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (columns.length === 0) return out;
  const selections = columns.map((column, i) => {
    const c = ident(column);
    return sql`count(*) filter (where ${c} is not null and ${c}::text <> '') as ${ident(`c${i}`)}`;
  });
  const { rows } = await sql<Record<string, string>>`select ${sql.join(selections)} from ${bizTable(table)}`.execute(db);
  columns.forEach((column, i) => out.set(column, Number(rows[0]![`c${i}`])));
  return out;
}

async function failingRows(db: Kysely<any>, table: string, column: string, fails: RawBuilder<unknown>) {
  const c = ident(column);
  const count = Number((await sql<{ n: string }>`select count(*) as n from ${bizTable(table)} where ${fails}`.execute(db)).rows[0]!.n);
  if (count === 0) return { count, samples: [] };
  const { rows } = await sql<{ id: string; value: string | null }>`
    select "Id"::text as id, left(${c}::text, 200) as value from ${bizTable(table)} where ${fails} order by "CreationTime", "Id" limit ${SAMPLE_ROWS}`.execute(db);
  return { count, samples: rows };
}

/** The step order that keeps every statement valid (see planSchema). */
const STEP_ORDER: Step['op'][] = ['dropFk', 'dropTable', 'createTable', 'dropColumn', 'renameColumn', 'alterTable', 'addFk', 'createIndex'];

/** Runs the steps (inside the caller's transaction). */
export async function applySteps(db: Kysely<any>, steps: Step[]): Promise<void> {
  const sorted = STEP_ORDER.flatMap((op) => steps.filter((s) => s.op === op));
  for (const step of sorted) await stepSql(step).execute(db);
}

function columnDef(name: string, type: BizColumnType) {
  return sql`${ident(name)} ${TYPE_SQL[type]}`;
}

const SYSTEM_DEFS = SYSTEM_COLUMNS.map((col) => {
  const parts = [sql`${ident(col.name)} ${sql.raw(col.sqlType)}`];
  if (col.name === 'Id') parts.push(sql`primary key`);
  else if (col.notNull) parts.push(sql`not null`);
  if (col.defaultSql) parts.push(sql`default ${sql.raw(col.defaultSql)}`);
  return sql.join(parts, sql` `);
});

export function stepSql(step: Step): RawBuilder<unknown> {
  switch (step.op) {
    case 'createTable':
      return sql`create table ${bizTable(step.table)} (${sql.join([...SYSTEM_DEFS, ...step.columns.map((c) => columnDef(c.name, c.type))])})`;
    case 'dropTable':
      return sql`drop table ${bizTable(step.table)}`;
    case 'dropFk':
      return sql`alter table ${bizTable(step.table)} drop constraint ${ident(step.constraint)}`;
    case 'addFk':
      return sql`alter table ${bizTable(step.table)} add constraint ${ident(parentFkName(step.table))}
        foreign key ("ParentViewDataId") references ${bizTable(step.parentTable)} ("Id") on delete cascade`;
    case 'dropColumn':
      return sql`alter table ${bizTable(step.table)} drop column ${ident(step.column)}`;
    case 'renameColumn':
      return sql`alter table ${bizTable(step.table)} rename column ${ident(step.from)} to ${ident(step.to)}`;
    case 'alterTable': {
      const clauses = [
        ...step.adds.map((a) => sql`add column ${columnDef(a.name, a.type)}`),
        ...step.alters.map((a) => sql`alter column ${ident(a.name)} type ${TYPE_SQL[a.type]} using ${a.using}`),
      ];
      return sql`alter table ${bizTable(step.table)} ${sql.join(clauses)}`;
    }
    case 'createIndex':
      return sql`create index if not exists ${ident(indexName(step.table, step.column))} on ${bizTable(step.table)} (${ident(step.column)})`;
  }
}

/** The table a design view publishes to (re-exported for callers of the diff). */
export { bizTableName };
