import type { TDataSourceMethod, THttpRequest } from '@tessera/core/contracts/data-sources';

// The workbench's request of an HTTP source as it is edited: rows of the query string and headers
// may be half typed (no name yet); what is sent leaves those out.

export const emptyHttpRequest = (): THttpRequest => ({ method: 'GET', path: '', query: [], headers: [], body: '', rowsPath: '' });

/** The request to send or save: rows without a name left out, the body dropped where the method has none. */
export function sentRequest(r: THttpRequest): THttpRequest {
  const named = <T extends { name: string }>(rows: T[]) => rows.filter((row) => row.name.trim()).map((row) => ({ ...row, name: row.name.trim() }));
  return {
    method: r.method,
    path: r.path.trim(),
    query: named(r.query),
    headers: named(r.headers),
    body: r.method === 'GET' || r.method === 'HEAD' ? '' : r.body,
    rowsPath: r.rowsPath.trim(),
  };
}

/** The open saved query's request was changed in the editor (a run then goes ad hoc). */
export const isOpenRequestEdited = (open: Pick<TDataSourceMethod, 'request'> | null, r: THttpRequest) =>
  open !== null && JSON.stringify(open.request ? sentRequest(open.request) : null) !== JSON.stringify(sentRequest(r));
