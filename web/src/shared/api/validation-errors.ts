import type { TErrorResponse } from '@tessera/core/contracts/common';

// The server's 400 answer names what failed: `{ error: { message, validationErrors: [{ message,
// members }] } }`, a member being a path into the request (`body.items.3.code` for a schema error,
// `code` or `items.3.code` for a rule a service checks). This maps those messages onto antd Form
// fields; the screens decide what to do with the rest (a toast, an alert). Pure: no antd, no DOM.

export type ValidationErrorItem = NonNullable<TErrorResponse['error']['validationErrors']>[number];

/** An antd Form name path: `['items', 3, 'code']`. */
export type FieldPath = (string | number)[];

export interface FieldErrors {
  name: FieldPath;
  errors: string[];
}

/** `body.items.3.code` → `['items', 3, 'code']`: a schema error's `body.` goes, digits become list indexes. */
export function memberPath(member: string): FieldPath {
  return member
    .replace(/^body(\.|$)/, '')
    .split('.')
    .filter((part) => part !== '')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

export interface MapOptions {
  /**
   * The form's field names. A member names a field when its path starts with one (`title.en` names
   * `title`); the field is then the first `depth` parts of the path. Left out: every member names a field.
   */
  fields?: readonly string[];
  /** How many parts of a member's path the field name keeps (default 1: the top-level field). */
  depth?: number;
  /** Decides the field a member's path names itself (`undefined` or `[]`: none); replaces `fields` and `depth`. */
  field?: (path: FieldPath) => FieldPath | undefined;
}

export interface MappedErrors {
  /** Messages per field, ready for `form.setFields` (a field's messages together, in the order given). */
  fields: FieldErrors[];
  /** Messages whose members name no field of the form, for a general alert or toast. */
  general: string[];
}

/**
 * Puts each message on the fields its members name; a message naming no field goes to `general`.
 * Nothing here depends on the message's HTTP status: callers check that first.
 */
export function mapValidationErrors(errors: readonly ValidationErrorItem[] | null | undefined, options: MapOptions = {}): MappedErrors {
  const depth = options.depth ?? 1;
  const named =
    options.field ??
    ((path: FieldPath): FieldPath | undefined => {
      if (path.length === 0) return undefined;
      if (options.fields && !options.fields.includes(String(path[0]))) return undefined;
      return path.slice(0, depth);
    });
  const byField = new Map<string, FieldErrors>();
  const general: string[] = [];
  for (const error of errors ?? []) {
    const names = new Map<string, FieldPath>();
    for (const member of error.members ?? []) {
      const name = named(memberPath(member));
      if (name?.length) names.set(JSON.stringify(name), name);
    }
    if (names.size === 0) general.push(error.message);
    for (const [key, name] of names) {
      const entry = byField.get(key) ?? { name, errors: [] };
      entry.errors.push(error.message);
      byField.set(key, entry);
    }
  }
  return { fields: [...byField.values()], general };
}

/**
 * `form.setFields(fields)` for an antd form of any values type: the names come from the server, so
 * they are not checked against the form's type (the mapping above only keeps the form's own fields).
 */
export function setFieldErrors(form: { setFields(fields: never[]): void }, fields: FieldErrors[]): void {
  if (fields.length) form.setFields(fields as never[]);
}
