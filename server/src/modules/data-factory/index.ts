/*
 * The data factory (issue 16). Owns `data_factory_procedures`, `data_factory_versions`,
 * `data_factory_runs` and the functions of schema `factory`; runs them as role `tessera_factory`
 * (migration 1000). Uses nothing of the other modules.
 */
export { dataFactoryRoutes } from './data-factory.routes.ts';
