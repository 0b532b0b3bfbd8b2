/*
 * Data sources (issue 16). Owns `data_sources`; keeps one connection pool per external source and
 * node (source-clients.ts). Uses nothing of the other modules. Others read rows of a saved query
 * through `readSourceRows` (lookups and drop-downs of business pages); the data factory lists and
 * calls the stored procedures of database sources (`callSourceRoutine`).
 */
export { dataSourceRoutes } from './data-sources.routes.ts';
export { findSourceMethod, readSourceRows, type SourceCondition, type SourceRows, type SourceRowsRequest } from './source-rows.ts';
export { callSourceRoutine, findRoutineSource, listRoutineSources, listSourceRoutines, sourceNamesOf, type RoutineCall, type RoutineParameter } from './source-routines.service.ts';
