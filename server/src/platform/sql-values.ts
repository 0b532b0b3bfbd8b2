/** Small helpers every repository and service shares for values going to and coming from SQL. */

/** `%`, `_` and `\` in user text match themselves in a LIKE pattern: `%text%`, escaped. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A timestamp column as ISO 8601 (`null` stays `null`). */
export const iso = (d: Date | string | null | undefined): string | null => (d == null || d === '' ? null : new Date(d).toISOString());

/** PostgreSQL unique violation (a concurrent insert won a race that the checks before it lost). */
export const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23505';
