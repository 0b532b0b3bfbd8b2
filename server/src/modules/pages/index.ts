/**
 * The pages module's public entry: the only file other modules import from it.
 * Owns the tables `page_definitions`, `page_definition_versions` and the business tables
 * (`biz_*`) that publishing creates; business-data reads and writes rows of the latter through the
 * helpers below.
 */
import { registerProcedureUsage } from '../data-factory/index.ts';
import { registerDictionaryUsageResolver } from '../dictionaries/index.ts';
import { publishedPagesRunningProcedure, publishedPagesUsingDictionaryCode } from './pages.repository.ts';

export { pageRoutes } from './pages.routes.ts';
export { bizTable, bizTableName, ident, isContainerView, nextCreationTime } from './biz-schema.ts';
export {
  findPageSummary,
  findPublishedPagesWithView,
  getPageSummaries,
  getPublishedPageDesign,
  listBindablePages,
  getPublishedPageDefinition,
  getPublishedVersionNumber,
  registerPageUsage,
  type PageSummary,
  type PageUsageSource,
  type PageUser,
} from './pages.service.ts';

// Deleting or re-coding a dictionary is refused while a published page's drop-down uses it.
registerDictionaryUsageResolver((db, dictionary) => publishedPagesUsingDictionaryCode(db, dictionary.code));

// Deleting a data factory procedure is refused while a published page's button runs it.
registerProcedureUsage(publishedPagesRunningProcedure);
