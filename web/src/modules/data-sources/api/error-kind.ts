// What a failed data source call was, for its title (contract: 502 DataSource.Unavailable, 504
// DataSource.Timeout, 400 DataSource.QueryFailed with the database's message, 400
// DataSource.BadResponse for an HTTP answer that cannot be used, 400
// DataSource.ReadOnly for a write on a read-only source, 400 ValidationError for a bad request).

export type DataSourceErrorKind = 'readOnly' | 'queryFailed' | 'badResponse' | 'unavailable' | 'timeout' | 'invalid' | 'failed';

export function dataSourceErrorKind(status: number, code: string | undefined): DataSourceErrorKind {
  if (code === 'DataSource.ReadOnly') return 'readOnly';
  if (code === 'DataSource.QueryFailed') return 'queryFailed';
  // An HTTP source answered, but not with JSON of a 2xx status.
  if (code === 'DataSource.BadResponse') return 'badResponse';
  if (code === 'DataSource.Unavailable' || status === 502) return 'unavailable';
  if (code === 'DataSource.Timeout' || status === 504) return 'timeout';
  if (code === 'ValidationError' || status === 400) return 'invalid';
  return 'failed';
}
