import { FACTORY_IDENTIFIER, PARAMETER_NAME, type TFactoryType, type TProcedure, type TProcedureInput, type TRoutine, type TSourceRoutine } from '@tessera/core/contracts/data-factory';
import { textOfValue, valueFromText } from './factory-values.ts';

/** The editor's copy of a definition: text boxes as typed, a key per table row. */
export interface ProcedureDraft {
  code: string;
  name: string;
  description: string;
  timeoutSeconds: number;
  rowCap: number;
  /** The database source of an external routine; null: a PL/pgSQL function of the product's database. */
  sourceId: string | null;
  /** The source's routine called (external only). */
  routine: TRoutine | null;
  parameters: { key: number; name: string; type: TFactoryType; mode: 'in' | 'out' | 'inout'; defaultText: string }[];
  returnsKind: 'table' | 'void';
  columns: { key: number; name: string; type: TFactoryType }[];
  body: string;
}

let nextKey = 1;
export const rowKey = () => nextKey++;

export const NEW_BODY = 'begin\n  return query select 1;\nend';

export function newDraft(): ProcedureDraft {
  return { code: '', name: '', description: '', timeoutSeconds: 30, rowCap: 1000, sourceId: null, routine: null, parameters: [], returnsKind: 'table', columns: [{ key: rowKey(), name: 'value', type: 'integer' }], body: NEW_BODY };
}

export function draftOf(p: TProcedure): ProcedureDraft {
  return {
    code: p.code,
    name: p.name,
    description: p.description,
    timeoutSeconds: p.timeoutSeconds,
    rowCap: p.rowCap,
    sourceId: p.sourceId,
    routine: p.routine,
    parameters: p.parameters.map((x) => ({ key: rowKey(), name: x.name, type: x.type, mode: x.mode, defaultText: textOfValue(x.defaultValue) })),
    returnsKind: p.returns.kind,
    columns: p.returns.kind === 'table' ? p.returns.columns.map((c) => ({ key: rowKey(), ...c })) : [],
    body: p.body,
  };
}

/** What is wrong before asking the server: bad names, bad defaults (by the table row's key); empty when none. */
export function draftProblems(d: ProcedureDraft): Set<string> {
  const wrong = new Set<string>();
  if (!FACTORY_IDENTIFIER.test(d.code)) wrong.add('code');
  if (!d.name.trim()) wrong.add('name');
  const external = d.sourceId !== null;
  if (external && !d.routine) wrong.add('routine');
  if (!external && !d.body.trim()) wrong.add('body');
  for (const p of d.parameters) {
    if (!(external ? PARAMETER_NAME : FACTORY_IDENTIFIER).test(p.name)) wrong.add(`param-name-${p.key}`);
    if (p.mode !== 'out' && !valueFromText(p.type, p.defaultText).ok) wrong.add(`param-default-${p.key}`);
  }
  if (!external && d.returnsKind === 'table') for (const c of d.columns) if (!FACTORY_IDENTIFIER.test(c.name)) wrong.add(`column-name-${c.key}`);
  return wrong;
}

export function inputOf(d: ProcedureDraft): TProcedureInput {
  return {
    code: d.code.trim(),
    name: d.name.trim(),
    description: d.description.trim(),
    timeoutSeconds: d.timeoutSeconds,
    rowCap: d.rowCap,
    sourceId: d.sourceId,
    parameters: d.parameters.map((p) => ({ name: p.name.trim(), type: p.type, mode: p.mode, defaultValue: p.mode !== 'out' ? valueFromText(p.type, p.defaultText).value : null })),
    ...(d.sourceId !== null
      ? { returns: { kind: 'void' }, body: '', routine: d.routine }
      : { returns: d.returnsKind === 'table' ? { kind: 'table', columns: d.columns.map((c) => ({ name: c.name.trim(), type: c.type })) } : { kind: 'void' }, body: d.body, routine: null }),
  };
}

/** A routine of the source picked: its name, and its parameters as the catalogue has them (no defaults). */
export function withRoutine(d: ProcedureDraft, r: TSourceRoutine): ProcedureDraft {
  return {
    ...d,
    routine: { schema: r.schema, name: r.name, kind: r.kind, returnsTable: r.returnsTable },
    parameters: r.parameters.map((p) => ({ key: rowKey(), name: p.name, type: p.type, mode: p.mode, defaultText: '' })),
  };
}
