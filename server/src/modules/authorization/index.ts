/**
 * The authorization module's public entry: the only file other modules import from it.
 * Owns the tables `permission_definitions`, `permission_grants` and `data_scopes` (the kernel's
 * guard, access lists and delegation read them too). Users, roles and units come from identity's
 * index; when identity removes one, the handler registered here removes its grants and scopes,
 * and the roles page's permission counts come from the counter registered here.
 */
import { registerPrincipalRemovalHandler, registerRoleGrantCounter } from '../identity/index.ts';
import { countGrantsOfRoles, removeGrantsOfPrincipals } from './identity-hooks.ts';

registerPrincipalRemovalHandler(removeGrantsOfPrincipals);
registerRoleGrantCounter(countGrantsOfRoles);

export { authorizationRoutes } from './authorization.routes.ts';
// For business data: the rows of a page a user may see.
export { dataScopeFor } from './data-scopes.service.ts';
// For business menus and pages: their codes, in the caller's transaction.
export { ensurePagePermissions, removePermissionGroup, removePermissions, saveMenuPermission } from './permission-definitions.service.ts';
// For the data factory: a code per procedure, in the caller's transaction.
export { saveOwnedPermission } from './permission-definitions.service.ts';
// For personal API keys: the codes a user may hand on, named.
export { definitionGroupsAmong } from './permission-definitions.service.ts';
// For business menus: a menu for a page granted to roles in one step (the grant screen's rules).
export { auditRoleGrants, grantToRolesWithin, pageCodesFor, type RoleGrantChange } from './permission-management.service.ts';
