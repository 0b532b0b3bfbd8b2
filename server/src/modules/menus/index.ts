/**
 * The menus module's public entry: the only file other modules import from it.
 * Owns no table: the system menu is computed from the caller's permission codes.
 */
export { menuRoutes } from './menus.routes.ts';
