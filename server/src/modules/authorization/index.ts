/**
 * The authorization module's public entry: the only file other modules import from it.
 * Owns the tables `permission_definitions`, `permission_grants` and `data_scopes` (the kernel's
 * guard, access lists and delegation read them too). Users, roles and units come from identity's
 * index; when identity removes one, the handler registered here removes its grants and scopes.
 */
import { registerPrincipalRemovalHandler } from '../identity/index.ts';
import { removeGrantsOfPrincipals } from './principal-removal.ts';

registerPrincipalRemovalHandler(removeGrantsOfPrincipals);

export { authorizationRoutes } from './authorization.routes.ts';
// For business data: the rows of a page a user may see.
export { dataScopeFor } from './data-scopes.service.ts';
// For business menus and pages: their codes, in the caller's transaction.
export { ensurePagePermissions, removePermissions, saveMenuPermission } from './permission-definitions.service.ts';
