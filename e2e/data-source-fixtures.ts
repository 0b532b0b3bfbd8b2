import type { Product } from './product.ts';
import { apiCall } from './shell-helpers.ts';

// What the data-source journeys share: the MariaDB of this machine, and statements run through a
// writable source made for the purpose (the journeys' own sources are read-only).

export const MARIADB = { kind: 'mysql', host: '127.0.0.1', port: 3306, database: 'test', user: 'root' } as const;

/** Runs statements on MariaDB through a writable source named after `label`, then removes the source. */
export async function asWriter(product: Product, token: string, label: string, ...statements: string[]) {
  const writer = await apiCall<{ id: string }>(product, token, 'POST', '/app/data-source', { ...MARIADB, name: `e2e writer ${label}`, readOnly: false });
  try {
    for (const sql of statements) await apiCall(product, token, 'POST', `/app/data-source/${writer.id}/query`, { sql, parameters: {} });
  } finally {
    await apiCall(product, token, 'DELETE', `/app/data-source/${writer.id}`);
  }
}
