import { z } from 'zod';

// The one text rule of every input (issue 27): a string is well-formed when it holds no U+0000 and
// no unpaired UTF-16 surrogate. PostgreSQL refuses both (NUL in text and jsonb, a lone surrogate
// cannot be encoded as UTF-8), so an ill-formed string must be a 400 naming the field, never
// reach the database. Every `z.string()` of the contracts is `zText()`, and free-form values
// (business-record values, view preferences, designer properties) are walked by `zJson()`.

/** In `u` mode `\p{Cs}` matches only surrogates that are not half of a pair. */
const ILL_FORMED = /[\u0000\p{Cs}]/u;

export const TEXT_RULE_MESSAGE = 'text must not contain NUL (U+0000) or unpaired surrogates';

/**
 * How deep a request's JSON may nest. Deeper input is refused before any schema or recursive code
 * reads it (a page design needs about 30 levels; nothing legitimate comes close).
 */
export const MAX_INPUT_DEPTH = 64;
export const DEPTH_RULE_MESSAGE = `nested more than ${MAX_INPUT_DEPTH} levels deep`;

/** True when `s` holds no U+0000 and no unpaired surrogate (what PostgreSQL can store). */
export function isWellFormedText(s: string): boolean {
  return !ILL_FORMED.test(s);
}

const ILL_FORMED_ALL = new RegExp(ILL_FORMED.source, 'gu');

/** The text with each NUL or unpaired surrogate replaced by U+FFFD, for messages and logs that quote input. */
export const replaceIllFormedText = (s: string): string => s.replace(ILL_FORMED_ALL, '\uFFFD');

export interface TextIssue {
  /** Path from the value walked: object keys and array indexes. */
  path: (string | number)[];
  kind: 'text' | 'depth';
}

/** Arrays and data objects (also prototype-less ones, as query-string parsers make); not dates, bytes, maps. */
const isPlainContainer = (v: unknown): v is Record<string, unknown> | unknown[] => {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return true;
  return !(v instanceof Date || v instanceof RegExp || v instanceof Map || v instanceof Set || v instanceof ArrayBuffer || ArrayBuffer.isView(v));
};

interface Frame {
  value: unknown;
  depth: number;
  parent: Frame | null;
  key: string | number | null;
}

function pathOf(frame: Frame, last?: string | number): (string | number)[] {
  const path: (string | number)[] = last === undefined ? [] : [last];
  for (let f: Frame | null = frame; f && f.key !== null; f = f.parent) path.unshift(f.key);
  return path;
}

/**
 * The ill-formed strings (values and object keys) inside a JSON-like value, and containers nested
 * past `maxDepth`: at most `limit` issues, found without recursion (safe on hostile nesting).
 * Only arrays and plain objects are entered; other objects (dates, buffers) are leaves.
 */
export function findTextIssues(value: unknown, options: { maxDepth?: number; limit?: number } = {}): TextIssue[] {
  const maxDepth = options.maxDepth ?? MAX_INPUT_DEPTH;
  const limit = options.limit ?? 20;
  const issues: TextIssue[] = [];
  if (typeof value === 'string') return isWellFormedText(value) ? [] : [{ path: [], kind: 'text' }];
  const stack: Frame[] = [{ value, depth: 0, parent: null, key: null }];
  while (stack.length && issues.length < limit) {
    const frame = stack.pop()!;
    const v = frame.value;
    if (!isPlainContainer(v)) continue;
    if (frame.depth >= maxDepth) {
      issues.push({ path: pathOf(frame), kind: 'depth' });
      continue;
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        const item = v[i];
        if (typeof item === 'string') {
          if (!isWellFormedText(item)) issues.push({ path: pathOf(frame, i), kind: 'text' });
        } else if (typeof item === 'object' && item !== null) stack.push({ value: item, depth: frame.depth + 1, parent: frame, key: i });
      }
      continue;
    }
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      if (!isWellFormedText(key)) {
        issues.push({ path: pathOf(frame, key), kind: 'text' });
        continue;
      }
      const item = v[key];
      if (typeof item === 'string') {
        if (!isWellFormedText(item)) issues.push({ path: pathOf(frame, key), kind: 'text' });
      } else if (typeof item === 'object' && item !== null) stack.push({ value: item, depth: frame.depth + 1, parent: frame, key });
    }
  }
  return issues.slice(0, limit);
}

/** A string under the text rule: use it for every string of a contract. */
export const zText = () => z.string().refine(isWellFormedText, { message: TEXT_RULE_MESSAGE });

/** Adds the text rule, applied to every string and key inside the value, to a free-form schema. */
export function wellFormedDeep<T extends z.ZodType>(schema: T): T {
  return schema.superRefine((value, ctx) => {
    for (const issue of findTextIssues(value)) {
      ctx.addIssue({ code: 'custom', message: issue.kind === 'text' ? TEXT_RULE_MESSAGE : DEPTH_RULE_MESSAGE, path: issue.path });
    }
  });
}

/** A free-form JSON value (business-record values, preferences, designer properties) under the text rule. */
export const zJson = () => wellFormedDeep(z.unknown());

/** `z.looseObject` whose extra properties (and their keys) follow the text rule too. */
export const zLooseObject = <S extends z.core.$ZodLooseShape>(shape: S) => wellFormedDeep(z.looseObject(shape));
