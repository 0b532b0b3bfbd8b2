/**
 * The business-menus module's public entry: the only file other modules import from it.
 * Owns the table `business_menus`.
 */
import { registerPageUsage } from '../pages/index.ts';
import { menusOpeningPage } from './business-menus.repository.ts';

export { businessMenuRoutes } from './business-menus.routes.ts';

// A page cannot be deleted while a menu opens it.
registerPageUsage(async (db, pageId) => (await menusOpeningPage(db, pageId)).map((m) => ({ kind: 'menu' as const, id: m.id, title: m.title })));
