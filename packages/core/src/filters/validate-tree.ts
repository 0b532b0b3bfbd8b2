import { isWellFormedText, TEXT_RULE_MESSAGE } from '../contracts/text.ts';
import { parseIsoDateParts } from '../helpers/iso-date.ts';
import type { FilterField, FilterScalar, FilterValidationError } from './filter-tree.ts';
import { findFilterOperator } from './operators.ts';

// Re-validates a filter tree that did not come straight from parseFilterConditions (a stored tree,
// a tree sent by a client, a tree built in code) before a back end evaluates or compiles it.
// Same rules as the parser: allow-listed field with the allow-list's field type, an operator of
// the table allowed for that type (date shortcuts must already be resolved), the operand count
// of the operator and operands of the field type. Never throws.

export const MAX_TREE_NODES = 2000;
export const MAX_TREE_DEPTH = 64;
const MAX_LIST_OPERANDS = 1000;
const MAX_TEXT_OPERAND = 1000;
/** Instants as the parser writes them (`2024-03-05T16:00:00.000Z`) or any ISO 8601 with a zone. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

function operandProblem(v: unknown, fieldType: number): string | null {
  switch (fieldType) {
    case 1:
    case 6:
      if (typeof v !== 'string') return 'Expected text';
      if (!isWellFormedText(v)) return TEXT_RULE_MESSAGE;
      return v.length > MAX_TEXT_OPERAND ? `Expected text of at most ${MAX_TEXT_OPERAND} characters` : null;
    case 2:
      return typeof v === 'number' && Number.isSafeInteger(v) ? null : 'Expected a whole number';
    case 3:
      return typeof v === 'number' && Number.isFinite(v) ? null : 'Expected a number';
    case 4:
      return typeof v === 'string' && INSTANT.test(v) && parseIsoDateParts(v) !== null ? null : 'Invalid ISO 8601 date format';
    case 5:
      return typeof v === 'boolean' ? null : 'Expected true or false';
    default:
      return 'Unknown field type';
  }
}

/** Problems of a filter tree against an allow-list; an empty list when it is valid. */
export function validateFilterTree(tree: unknown, fields: readonly FilterField[], path = 'filter'): FilterValidationError[] {
  const allowed = new Map(fields.map((f) => [f.code, f]));
  const errors: FilterValidationError[] = [];
  let nodes = 0;
  const visit = (node: unknown, at: string, depth: number): void => {
    if (errors.length >= 20) return;
    if (++nodes > MAX_TREE_NODES) {
      if (nodes === MAX_TREE_NODES + 1) errors.push({ message: `At most ${MAX_TREE_NODES} nodes`, members: [path] });
      return;
    }
    if (depth > MAX_TREE_DEPTH) {
      errors.push({ message: 'Conditions are nested too deeply', members: [at] });
      return;
    }
    if (typeof node !== 'object' || node === null || Array.isArray(node)) {
      errors.push({ message: 'Expected a condition or a group', members: [at] });
      return;
    }
    const n = node as Partial<Record<string, unknown>>;
    if (n.kind === 'group') {
      if (n.link !== 'and' && n.link !== 'or') errors.push({ message: 'Link condition must be AND or OR', members: [`${at}.link`] });
      if (!Array.isArray(n.children)) {
        errors.push({ message: 'A group needs a list of children', members: [`${at}.children`] });
        return;
      }
      n.children.forEach((child, i) => visit(child, `${at}.children[${i}]`, depth + 1));
      return;
    }
    if (n.kind !== 'condition') {
      errors.push({ message: 'Expected a condition or a group', members: [`${at}.kind`] });
      return;
    }
    const field = typeof n.field === 'string' ? allowed.get(n.field) : undefined;
    if (!field) {
      errors.push({ message: `Unknown field "${String(n.field).slice(0, 64)}"`, members: [`${at}.field`] });
      return;
    }
    if (n.fieldType !== field.tableFieldType) {
      errors.push({ message: `Field "${field.code}" has field type ${field.tableFieldType}`, members: [`${at}.fieldType`] });
      return;
    }
    const op = typeof n.operator === 'string' ? findFilterOperator(n.operator) : undefined;
    if (!op || op.code !== n.operator || op.arity === 'shortcut') {
      errors.push({ message: `Unknown operator "${String(n.operator).slice(0, 32)}"`, members: [`${at}.operator`] });
      return;
    }
    if (!op.fieldTypes.includes(field.tableFieldType)) {
      errors.push({ message: `Operator "${op.code}" cannot be used with field "${field.code}"`, members: [`${at}.operator`] });
      return;
    }
    const operands = n.operands;
    if (!Array.isArray(operands)) {
      errors.push({ message: 'Operands must be a list', members: [`${at}.operands`] });
      return;
    }
    const count = operands.length;
    const countOk = op.arity === 'none' ? count === 0 : op.arity === 'one' ? count === 1 : op.arity === 'two' ? count === 2 : count >= 1 && count <= MAX_LIST_OPERANDS;
    if (!countOk) {
      errors.push({ message: `Operator "${op.code}" takes ${op.arity === 'list' ? `1 to ${MAX_LIST_OPERANDS}` : op.arity === 'two' ? '2' : op.arity === 'one' ? '1' : '0'} value(s)`, members: [`${at}.operands`] });
      return;
    }
    for (let i = 0; i < count; i++) {
      const problem = operandProblem(operands[i] as FilterScalar, field.tableFieldType);
      if (problem) {
        errors.push({ message: problem, members: [`${at}.operands[${i}]`] });
        return;
      }
    }
  };
  visit(tree, path, 0);
  return errors;
}

