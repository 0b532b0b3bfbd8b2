/*
 * Data sources (issue 16). Owns `data_sources`; keeps one connection pool per external source and
 * node (source-clients.ts). Uses nothing of the other modules.
 */
export { dataSourceRoutes } from './data-sources.routes.ts';
