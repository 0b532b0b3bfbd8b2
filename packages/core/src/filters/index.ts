import { isWellFormedText, TEXT_RULE_MESSAGE } from '../contracts/text.ts';
import { DATE_OUT_OF_RANGE_MESSAGE, isoDateProblem, isoPartsToTime, isTimeInDateRange, parseIsoDateParts } from '../helpers/iso-date.ts';
import type { TableFieldType } from '../page-definition.ts';
import { nextDay, resolveDateShortcut } from './date-shortcuts.ts';
import type { FilterConditionNode, FilterField, FilterGroupNode, FilterNode, FilterParseResult, FilterScalar, FilterValidationError } from './filter-tree.ts';
import { findFilterOperator, isDateShortcut, type TreeOperatorCode } from './operators.ts';

export type * from './filter-tree.ts';
export {
  FILTER_OPERATORS, FILTER_OPERATOR_CODES, findFilterOperator, operatorsForFieldType,
  type DateShortcutCode, type FilterOperator, type FilterOperatorCode, type TreeOperatorCode,
} from './operators.ts';
export { resolveDateShortcut, type DateRange } from './date-shortcuts.ts';
export { compileFilterPredicate, foldCase, type FilterPredicate } from './predicate.ts';
export { validateFilterTree, MAX_TREE_NODES, MAX_TREE_DEPTH } from './validate-tree.ts';
export { andFilterLists } from './combine.ts';

// Filter and join condition lists (spec §3) → a validated tree. Never throws: every problem is
// reported as `{ message, members }`, members naming the offending list entry and property.
// AND binds tighter than OR; brackets group. Each entry's linkCondition joins it to the entry
// before it (the first entry's is ignored). Entries are taken in sortNo order when given.

/** The flat list entry; filter and join conditions share these properties. */
export interface FlatCondition {
  key?: unknown;
  judgmentMethod?: unknown;
  joinConditionMethod?: unknown;
  value?: unknown;
  leftBracket?: unknown;
  rightBracket?: unknown;
  linkCondition?: unknown;
  tableFieldType?: unknown;
  sortNo?: unknown;
  isSys?: unknown;
}

export interface FilterParseOptions {
  /** Clock for date shortcuts; required only when a shortcut is used. */
  now?: Date;
  /** User's offset from UTC in minutes: zone of date-only values and shortcuts. Default 0. */
  offsetMinutes?: number;
  /** Property path used in error members. Default `filterConditions`. */
  path?: string;
  /** Most operands (values) of all conditions together. Default MAX_FILTER_OPERANDS. */
  maxOperands?: number;
}

export const MAX_FILTER_CONDITIONS = 200;
const MAX_BRACKETS_PER_ENTRY = 10;
const MAX_LIST_OPERANDS = 1000;
/**
 * Most values one filter list may hold in all its conditions together (each becomes a bound
 * parameter; PostgreSQL takes at most 65,535 in one statement, and a query also binds the data
 * scope's and the page's own values). See FILTERS.md.
 */
export const MAX_FILTER_OPERANDS = 5000;
/**
 * Most values of the data-scope filters applied to one query (set by administrators, outside the
 * caller's MAX_FILTER_OPERANDS); scope filters past it grant no rows rather than fail the query.
 */
export const MAX_SCOPE_OPERANDS = 40_000;

/** How many operands (bound values) a validated tree holds. */
export function countFilterOperands(node: FilterNode): number {
  let count = 0;
  const stack: FilterNode[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.kind === 'condition') count += n.operands.length;
    else stack.push(...n.children);
  }
  return count;
}
const MAX_TEXT_OPERAND = 1000;

type Token = { t: '(' | ')' | 'and' | 'or'; index: number } | { t: 'cond'; node: FilterNode; index: number };

/** How many brackets a condition row opens (`(`) or closes (`)`): a count, `((`, or null when unreadable. */
export function bracketCount(raw: unknown, char: '(' | ')'): number | null {
  if (raw === null || raw === undefined || raw === '' || raw === 0) return 0;
  if (typeof raw === 'number') return Number.isInteger(raw) && raw >= 0 ? raw : null;
  if (typeof raw === 'string' && [...raw.trim()].every((c) => c === char || c === (char === '(' ? '（' : '）'))) return raw.trim().length;
  return null;
}

/** How a condition row joins the one before it: and (also blank), or, or null when unreadable. */
export function linkOf(raw: unknown): 'and' | 'or' | null {
  if (raw === null || raw === undefined || raw === '') return 'and';
  const t = String(raw).trim().toLowerCase();
  if (['and', '&&', '1', '并且', '且'].includes(t)) return 'and';
  if (['or', '||', '2', '或者', '或'].includes(t)) return 'or';
  return null;
}

/** Parses operand values for a field type; an error message when they do not fit. */
function parseScalar(raw: unknown, fieldType: TableFieldType, offsetMinutes: number): FilterScalar | string[] {
  const bad = (what: string): string[] => [`Expected ${what}`];
  switch (fieldType) {
    case 1:
    case 6: {
      if (typeof raw !== 'string' && typeof raw !== 'number') return bad('text');
      const s = String(raw);
      if (!isWellFormedText(s)) return [TEXT_RULE_MESSAGE];
      return s.length > MAX_TEXT_OPERAND ? bad(`text of at most ${MAX_TEXT_OPERAND} characters`) : s;
    }
    case 2:
    case 3: {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isFinite(n)) return bad('a number');
      if (fieldType === 2 && !Number.isSafeInteger(n)) return bad('a whole number');
      return n;
    }
    case 4: {
      const parts = typeof raw === 'string' ? parseIsoDateParts(raw) : null;
      if (!parts) return [isoDateProblem(raw)];
      // The years 1–9999 are checked on the whole condition (after its day arithmetic), below.
      const iso = new Date(isoPartsToTime(parts, offsetMinutes)).toISOString();
      // Date-only values are marked with a trailing '#day' until expanded into ranges.
      return parts.hasTime ? iso : `${iso}#day`;
    }
    case 5:
      if (raw === true || raw === 'true' || raw === 1 || raw === '1') return true;
      if (raw === false || raw === 'false' || raw === 0 || raw === '0') return false;
      return bad('true or false');
  }
}

function splitList(raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  if (typeof raw === 'string') {
    const t = raw.trim();
    if (t.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(t);
        if (Array.isArray(parsed)) return parsed;
      } catch {
        /* fall through to comma-separated */
      }
    }
    return t === '' ? [] : t.split(/[,，]/).map((s) => s.trim());
  }
  return raw === null || raw === undefined ? [] : [raw];
}

const cond = (base: Omit<FilterConditionNode, 'operator' | 'operands'>, operator: TreeOperatorCode, operands: FilterScalar[]): FilterConditionNode => ({
  ...base, operator, operands,
});
const group = (link: 'and' | 'or', children: FilterNode[]): FilterGroupNode => ({ kind: 'group', link, children });

/** Date-only operands mean whole days: `eq 2024-03-05` is [that midnight, next midnight). */
function expandDateOnly(base: Omit<FilterConditionNode, 'operator' | 'operands'>, op: TreeOperatorCode, operands: string[]): FilterNode {
  const strip = (s: string) => s.replace('#day', '');
  const isDay = (s: string) => s.endsWith('#day');
  const [a, b] = operands;
  if (!operands.some(isDay)) return cond(base, op, operands);
  const start = (s: string) => strip(s);
  const end = (s: string) => (isDay(s) ? nextDay(strip(s)) : strip(s));
  switch (op) {
    case 'eq':
      return isDay(a) ? group('and', [cond(base, 'ge', [start(a)]), cond(base, 'lt', [end(a)])]) : cond(base, 'eq', [strip(a)]);
    case 'ne':
      return isDay(a) ? group('or', [cond(base, 'lt', [start(a)]), cond(base, 'ge', [end(a)]), cond(base, 'isEmpty', [])]) : cond(base, 'ne', [strip(a)]);
    case 'gt':
      return isDay(a) ? cond(base, 'ge', [end(a)]) : cond(base, 'gt', [strip(a)]);
    case 'le':
      return isDay(a) ? cond(base, 'lt', [end(a)]) : cond(base, 'le', [strip(a)]);
    case 'between':
      return group('and', [cond(base, 'ge', [start(a)]), isDay(b) ? cond(base, 'lt', [end(b)]) : cond(base, 'le', [strip(b)])]);
    default:
      return cond(base, op, operands.map(strip));
  }
}

function parseEntry(entry: FlatCondition, index: number, fields: Map<string, FilterField>, options: FilterParseOptions, member: (p: string) => string, errors: FilterValidationError[], budget: { count: number }): FilterNode | null {
  const push = (message: string, prop: string) => errors.push({ message, members: [member(prop)] });
  const key = typeof entry.key === 'string' ? entry.key : '';
  const field = fields.get(key);
  if (!field) {
    push(`Unknown field "${key.slice(0, 64)}"`, 'key');
    return null;
  }
  const method = entry.judgmentMethod ?? entry.joinConditionMethod;
  const op = findFilterOperator(method);
  if (!op) {
    push(`Unknown operator "${String(method).slice(0, 32)}"`, 'judgmentMethod');
    return null;
  }
  if (!op.fieldTypes.includes(field.tableFieldType)) {
    push(`Operator "${op.code}" cannot be used with field "${key}"`, 'judgmentMethod');
    return null;
  }
  const sortNo = typeof entry.sortNo === 'number' ? entry.sortNo : null;
  const base = { kind: 'condition' as const, field: key, fieldType: field.tableFieldType, source: { index, sortNo, isSys: entry.isSys === true || entry.isSys === 'true' } };
  const offset = options.offsetMinutes ?? 0;
  if (op.arity === 'shortcut') {
    if (!isDateShortcut(op.code)) return null;
    if (!options.now) {
      push('A clock is needed for date shortcuts', 'judgmentMethod');
      return null;
    }
    const { from, to } = resolveDateShortcut(op.code, options.now, offset);
    const b = { ...base, source: { ...base.source, shortcut: op.code } };
    return group('and', [cond(b, 'ge', [from]), cond(b, 'lt', [to])]);
  }
  const operator = op.code as TreeOperatorCode;
  if (op.arity === 'none') return cond(base, operator, []);
  const raws = op.arity === 'one' ? [entry.value] : splitList(entry.value);
  budget.count += raws.length;
  if (op.arity === 'two' && raws.length !== 2) {
    push('Between needs two values', 'value');
    return null;
  }
  if (op.arity === 'list' && (raws.length === 0 || raws.length > MAX_LIST_OPERANDS)) {
    push(`Give between 1 and ${MAX_LIST_OPERANDS} values`, 'value');
    return null;
  }
  const operands: FilterScalar[] = [];
  for (const raw of raws) {
    const v = parseScalar(raw, field.tableFieldType, offset);
    if (Array.isArray(v)) {
      push(v[0], 'value');
      return null;
    }
    operands.push(v);
  }
  if (field.tableFieldType === 4) {
    const node = expandDateOnly(base, operator, operands as string[]);
    // Years 1–9999 as the caller means the dates (at their offset), after the day arithmetic:
    // `eq 9999-12-31` needs 10000-01-01. (An instant a zone moves just past an end is fine: the
    // back ends compare it exactly.)
    if (!dateOperandsInRange(node, offset)) {
      push(DATE_OUT_OF_RANGE_MESSAGE, 'value');
      return null;
    }
    return node;
  }
  return cond(base, operator, operands);
}

function dateOperandsInRange(node: FilterNode, offsetMinutes: number): boolean {
  if (node.kind === 'group') return node.children.every((c) => dateOperandsInRange(c, offsetMinutes));
  return node.operands.every((v) => {
    return isTimeInDateRange(Date.parse(String(v)) + offsetMinutes * 60_000);
  });
}

/** Folds nested groups with the same link and unwraps single-child groups. */
function simplify(node: FilterNode): FilterNode {
  if (node.kind === 'condition') return node;
  const children: FilterNode[] = [];
  for (const child of node.children.map(simplify)) {
    if (child.kind === 'group' && (child.link === node.link || child.children.length === 1)) children.push(...child.children);
    else children.push(child);
  }
  return children.length === 1 ? children[0] : { ...node, children };
}

/** Parses and validates a flat filter/join condition list against the allowed fields. */
export function parseFilterConditions(list: unknown, fields: readonly FilterField[], options: FilterParseOptions = {}): FilterParseResult {
  const path = options.path ?? 'filterConditions';
  if (list === null || list === undefined) return { ok: true, tree: group('and', []) };
  if (!Array.isArray(list)) return { ok: false, errors: [{ message: 'Conditions must be a list', members: [path] }] };
  if (list.length > MAX_FILTER_CONDITIONS) return { ok: false, errors: [{ message: `At most ${MAX_FILTER_CONDITIONS} conditions`, members: [path] }] };
  const allowed = new Map(fields.map((f) => [f.code, f]));
  const errors: FilterValidationError[] = [];
  // Stable sort by sortNo; entries without one keep their place after numbered ones.
  const ordered = list.map((entry, index) => ({ entry, index })).sort((a, b) => {
    const sa = typeof a.entry?.sortNo === 'number' ? a.entry.sortNo : Number.MAX_SAFE_INTEGER;
    const sb = typeof b.entry?.sortNo === 'number' ? b.entry.sortNo : Number.MAX_SAFE_INTEGER;
    return sa - sb || a.index - b.index;
  });
  const tokens: Token[] = [];
  const operands = { count: 0 };
  ordered.forEach(({ entry, index }, position) => {
    const member = (prop: string) => `${path}[${index}].${prop}`;
    if (typeof entry !== 'object' || entry === null) {
      errors.push({ message: 'Each condition must be an object', members: [`${path}[${index}]`] });
      return;
    }
    const e = entry as FlatCondition;
    const left = bracketCount(e.leftBracket, '(');
    const right = bracketCount(e.rightBracket, ')');
    if (left === null || left > MAX_BRACKETS_PER_ENTRY) errors.push({ message: 'Invalid left bracket', members: [member('leftBracket')] });
    if (right === null || right > MAX_BRACKETS_PER_ENTRY) errors.push({ message: 'Invalid right bracket', members: [member('rightBracket')] });
    const link = linkOf(e.linkCondition);
    if (!link) errors.push({ message: 'Link condition must be AND or OR', members: [member('linkCondition')] });
    const node = parseEntry(e, index, allowed, options, member, errors, operands);
    if (position > 0) tokens.push({ t: link ?? 'and', index });
    for (let i = 0; i < (left ?? 0); i++) tokens.push({ t: '(', index });
    if (node) tokens.push({ t: 'cond', node, index });
    for (let i = 0; i < (right ?? 0); i++) tokens.push({ t: ')', index });
  });
  const maxOperands = options.maxOperands ?? MAX_FILTER_OPERANDS;
  if (operands.count > maxOperands) return { ok: false, errors: [{ message: `At most ${maxOperands} values in all conditions together`, members: [path] }] };
  if (errors.length) return { ok: false, errors };
  return buildTree(tokens, path);
}

/** or-expr := and-expr ('or' and-expr)* ; and-expr := atom ('and' atom)* ; atom := cond | '(' or-expr ')' */
function buildTree(tokens: Token[], path: string): FilterParseResult {
  let pos = 0;
  let depth = 0;
  const errors: FilterValidationError[] = [];
  const fail = (message: string, index: number) => {
    errors.push({ message, members: [`${path}[${index}]`] });
    return null;
  };
  const atom = (): FilterNode | null => {
    const token = tokens[pos++];
    if (!token) return fail('A condition is missing at the end', tokens.at(-1)?.index ?? 0);
    if (token.t === 'cond') return token.node;
    if (token.t === '(') {
      if (++depth > 32) return fail('Brackets are nested too deeply', token.index);
      const inner = orExpr();
      depth--;
      if (!inner) return null;
      if (tokens[pos]?.t !== ')') return fail('Brackets are not balanced: a ) is missing', token.index);
      pos++;
      return inner;
    }
    return fail(`Unexpected ${token.t === ')' ? ')' : token.t.toUpperCase()}: brackets are not balanced`, token.index);
  };
  const level = (link: 'and' | 'or', operand: () => FilterNode | null) => (): FilterNode | null => {
    const first = operand();
    if (!first) return null;
    const children = [first];
    while (tokens[pos]?.t === link) {
      pos++;
      const next = operand();
      if (!next) return null;
      children.push(next);
    }
    return children.length === 1 ? first : group(link, children);
  };
  const andExpr = level('and', atom);
  const orExpr = level('or', andExpr);
  if (tokens.length === 0) return { ok: true, tree: group('and', []) };
  const tree = orExpr();
  if (tree && pos < tokens.length) fail('Brackets are not balanced: an extra )', tokens[pos].index);
  if (!tree || errors.length) return { ok: false, errors: errors.slice(0, 1) };
  const simple = simplify(tree);
  return { ok: true, tree: simple.kind === 'group' ? simple : group('and', [simple]) };
}
