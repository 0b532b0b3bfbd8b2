import type { TDataSourceQueryResult } from '@tessera/core/contracts/data-sources';

// How the workbench shows an answer. Values arrive as JSON (contract: numbers, text — exact
// decimals and 64-bit integers as text —, ISO times, base64 bytes; JSON columns as objects).

/** A cell's text, or null for SQL NULL (shown greyed). */
export function cellText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A column's starting width from its name (the body may scroll sideways; cells are cut with an ellipsis). */
export const columnWidth = (name: string) => Math.min(320, Math.max(96, name.length * 9 + 48));

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The status line: "n 行 · x ms", with "（已截断，仅显示前 n 行）" when the row cap cut it, or
 * "影响 n 行 · x ms" for a write (no columns, affected rows counted); "（缓存）" ends it when a saved
 * query's answer came from its cache.
 */
export function statusLine(result: TDataSourceQueryResult, t: Translate): string {
  const elapsed = t('result.elapsed', { ms: Math.round(result.elapsedMs) });
  const cached = result.cached ? t('result.cached') : '';
  if (result.affectedRows !== null && result.columns.length === 0) return `${t('result.affected', { count: result.affectedRows })} · ${elapsed}${cached}`;
  const line = `${t('result.rows', { count: result.rowCount })} · ${elapsed}`;
  return (result.truncated ? line + t('result.truncated', { count: result.rowCount }) : line) + cached;
}
