/**
 * The dictionaries module's public entry: the only file other modules import from it.
 * Owns the tables `dictionaries` and `dictionary_items`.
 */
export { dictionaryRoutes } from './dictionaries.routes.ts';
export { dictionaryLabelsByCodes, findDictionaryItemsByCodes, findDictionaryOptions, listDictionaryOptions, type DictionaryItemLabels } from './dictionaries.service.ts';
export { registerDictionaryUsageResolver, type DictionaryUsageResolver } from './dictionary-usage.ts';
