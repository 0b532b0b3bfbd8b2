/**
 * The localization module's public entry: the only file other modules import from it.
 * Owns the tables `language_packs`, `localization_texts` and `localization_version`.
 */
export { localizationRoutes } from './localization.routes.ts';
