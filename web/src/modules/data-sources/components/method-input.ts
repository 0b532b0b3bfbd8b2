import { DATA_SOURCE_LIMITS, type TDataSourceMethod, type TDataSourceMethodInput, type TDataSourceMethodParameter } from '@tessera/core/contracts/data-sources';
import type { FieldPath } from '../../../shared/api/validation-errors.ts';
import { isValidParameter, parameterValues, type ParameterRow, type ParameterValue } from './query-parameters.ts';

// Saved queries (the contract's "methods") as the workbench edits and runs them. The save form
// holds one parameter per `:name` in the SQL, its default value as typed; the server requires the
// declared parameters to be exactly the SQL's names (400 otherwise), so they are built from those names.

export const METHOD_PARAMETER_TYPES = ['text', 'number', 'boolean'] as const satisfies readonly TDataSourceMethodParameter['type'][];
export type MethodParameterType = TDataSourceMethodParameter['type'];

export interface MethodParameterFields {
  name: string;
  type: MethodParameterType;
  /** As typed: text as it is, a number's digits ('' is no default: NULL), 'true' / 'false' for a boolean. */
  defaultValue: string;
  required: boolean;
}

export interface MethodFormValues {
  code: string;
  name: string;
  description: string;
  cacheSeconds: number | null;
  parameters: MethodParameterFields[];
}

/** What the code may be (contract: letters, digits, _, not starting with a digit). */
export const METHOD_CODE_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

const typed = (value: ParameterValue): string => (value === null ? '' : String(value));

const fromSaved = (p: TDataSourceMethodParameter): MethodParameterFields => ({
  name: p.name,
  type: p.type,
  defaultValue: p.type === 'boolean' ? (p.defaultValue === true ? 'true' : 'false') : typed(p.defaultValue),
  required: p.required,
});

// A row typed as null has no method type of its own: it becomes text with no default.
const fromRow = (row: ParameterRow): MethodParameterFields => ({
  name: row.name,
  type: row.type === 'null' ? 'text' : row.type,
  defaultValue: row.type === 'null' ? '' : row.value,
  required: false,
});

/**
 * The save form's first values. One parameter per row of the parameters table (the SQL's names):
 * a name the open query already declares keeps its saved type, default and required, a new one
 * takes the row's type and value. Editing fills the open query's own fields; saving as a new
 * query starts them empty.
 */
export function methodFormValues(rows: readonly ParameterRow[], open: TDataSourceMethod | null, editing: boolean): MethodFormValues {
  const saved = new Map((open?.parameters ?? []).map((p) => [p.name, p]));
  const parameters = rows.map((row) => {
    const p = saved.get(row.name);
    return p ? fromSaved(p) : fromRow(row);
  });
  if (editing && open) return { code: open.code, name: open.name, description: open.description, cacheSeconds: open.cacheSeconds, parameters };
  return { code: '', name: '', description: '', cacheSeconds: DATA_SOURCE_LIMITS.cacheSeconds.default, parameters };
}

/** A parameter with another type: a boolean starts false unless its text said true. */
export function withMethodParameterType(p: MethodParameterFields, type: MethodParameterType): MethodParameterFields {
  if (type === 'boolean') return { ...p, type, defaultValue: p.defaultValue.trim().toLowerCase() === 'true' ? 'true' : 'false' };
  if (p.type === 'boolean') return { ...p, type, defaultValue: '' };
  return { ...p, type };
}

/** Whether a default as typed is one (an empty number is: NULL). */
export const isValidDefault = (type: MethodParameterType, value: string) => type !== 'number' || value.trim() === '' || isValidParameter({ name: '', type, value });

function defaultValueOf(p: MethodParameterFields): ParameterValue {
  if (p.type === 'boolean') return p.defaultValue === 'true';
  if (p.type === 'number') return p.defaultValue.trim() === '' ? null : Number(p.defaultValue.trim());
  return p.defaultValue;
}

/**
 * The body of the save (POST, or PUT with the stamp added): the SQL is the editor's text, the
 * parameters exactly its names in order; `invalid` names the parameters whose default is not a number.
 */
export function methodInput(values: MethodFormValues, sql: string, names: readonly string[]): { input: TDataSourceMethodInput; invalid: string[] } {
  const fields = new Map(values.parameters.map((p) => [p.name, p]));
  const invalid: string[] = [];
  const parameters = names.map((name): TDataSourceMethodParameter => {
    const p = fields.get(name) ?? { name, type: 'text', defaultValue: '', required: false };
    if (!isValidDefault(p.type, p.defaultValue)) invalid.push(name);
    return { name, type: p.type, defaultValue: defaultValueOf(p), required: p.required };
  });
  const input: TDataSourceMethodInput = {
    code: values.code.trim(),
    name: values.name.trim(),
    description: (values.description ?? '').trim(),
    sql: sql.trim(),
    parameters,
    cacheSeconds: values.cacheSeconds ?? DATA_SOURCE_LIMITS.cacheSeconds.default,
  };
  return { input, invalid };
}

/** The parameters table's rows for an opened query: each parameter's type with its default as the value (a NULL default as a null row). */
export function methodParameterRows(method: Pick<TDataSourceMethod, 'parameters'>): Record<string, ParameterRow> {
  const rows: Record<string, ParameterRow> = {};
  for (const p of method.parameters)
    rows[p.name] = p.defaultValue === null ? { name: p.name, type: 'null', value: '' } : { name: p.name, type: p.type, value: fromSaved(p).defaultValue };
  return rows;
}

/**
 * The values a saved query's run sends: as an ad-hoc run's, except that an empty number is left
 * out, so the saved default fills it (contract: defaults fill what is not given).
 */
export const methodRunValues = (rows: readonly ParameterRow[]) => parameterValues(rows.filter((r) => !(r.type === 'number' && r.value.trim() === '')));

/** The open query's SQL was changed in the editor (the server keeps the SQL trimmed). A run then goes ad hoc. */
export const isOpenQueryEdited = (open: Pick<TDataSourceMethod, 'sql'> | null, sql: string) => open !== null && open.sql.trim() !== sql.trim();

const TOP_FIELDS = ['code', 'name', 'description', 'cacheSeconds'];
const PARAMETER_FIELDS = ['type', 'defaultValue', 'required'];

/**
 * The save form's field a 400's member names (`code`, `parameters.0.defaultValue`), for
 * mapValidationErrors; `sql`, `parameters` as a whole and the rest have no field (the modal's alert).
 */
export function methodErrorField(path: FieldPath): FieldPath | undefined {
  const [first, index, field] = path;
  if (path.length >= 1 && TOP_FIELDS.includes(String(first))) return [String(first)];
  if (first === 'parameters' && typeof index === 'number' && PARAMETER_FIELDS.includes(String(field))) return ['parameters', index, String(field)];
  return undefined;
}
