import { DATA_SOURCE_LIMITS } from '@tessera/core/contracts/data-sources';

// The workbench's parameter rows: one per `:name` the SQL uses (sqlParameterNames), in order of
// first use. Rows are remembered by name for the whole session, so a parameter that disappears
// while the SQL is being typed (`:cust` on the way to `:customer`, or a line cut and pasted back)
// comes back with its type and value.

export const PARAMETER_TYPES = ['text', 'number', 'boolean', 'null'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

export interface ParameterRow {
  name: string;
  type: ParameterType;
  /** As typed: text as it is, a number's digits, 'true' / 'false' for a boolean; ignored for null. */
  value: string;
}

export type ParameterValue = string | number | boolean | null;

export const emptyParameter = (name: string): ParameterRow => ({ name, type: 'text', value: '' });

/** The rows the SQL's names call for, each the remembered one when there is one. */
export const parameterRows = (names: readonly string[], remembered: Readonly<Record<string, ParameterRow>>): ParameterRow[] =>
  names.map((name) => (Object.hasOwn(remembered, name) ? remembered[name]! : emptyParameter(name)));

/** A row with another type: a boolean starts false unless its text said true. */
export function withType(row: ParameterRow, type: ParameterType): ParameterRow {
  if (type === 'boolean') return { ...row, type, value: row.value.trim().toLowerCase() === 'true' ? 'true' : 'false' };
  if (row.type === 'boolean') return { ...row, type, value: '' };
  return { ...row, type };
}

/** A number as typed: digits with an optional sign, decimals and exponent (no '', no 'Infinity', no hex). */
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

export const isValidParameter = (row: ParameterRow) => row.type !== 'number' || NUMBER.test(row.value.trim());

/** The values to send (`parameters` of the query input) and the names whose value is not valid. */
export function parameterValues(rows: readonly ParameterRow[]): { values: Record<string, ParameterValue>; invalid: string[] } {
  const values: Record<string, ParameterValue> = {};
  const invalid: string[] = [];
  for (const row of rows) {
    if (!isValidParameter(row)) invalid.push(row.name);
    else if (row.type === 'number') values[row.name] = Number(row.value.trim());
    else if (row.type === 'boolean') values[row.name] = row.value === 'true';
    else if (row.type === 'null') values[row.name] = null;
    else values[row.name] = row.value;
  }
  return { values, invalid };
}

/** More names than the server binds (contract: at most DATA_SOURCE_LIMITS.parameters). */
export const tooManyParameters = (names: readonly string[]) => names.length > DATA_SOURCE_LIMITS.parameters;
