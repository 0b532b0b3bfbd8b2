/*
 * Data sources (issue 16). Owns `data_sources`; keeps one connection pool per external source and
 * node (source-clients.ts). Uses nothing of the other modules. Others read rows of a saved query
 * through `readSourceRows` (lookups and drop-downs of business pages).
 */
export { dataSourceRoutes } from './data-sources.routes.ts';
export { findSourceMethod, readSourceRows, type SourceCondition, type SourceRows, type SourceRowsRequest } from './source-rows.ts';
