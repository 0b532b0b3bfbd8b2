/**
 * The identity module's public entry: the only file other modules import from it.
 * Owns the tables `users`, `roles`, `user_roles`, `organization_units` and
 * `user_organization_units` (the kernel's guard, access lists and delegation read them too).
 *
 * Modules that keep rows about users, roles or units register a principal-removal handler here,
 * and authorization the counter of a role's permissions (the roles page); identity never imports them.
 */
export { identityRoutes } from './identity.routes.ts';
export { registerPrincipalRemovalHandler, type PrincipalRemovalHandler } from './principal-removal.ts';
export { registerRoleGrantCounter, type RoleGrantCounter } from './role-grant-count.ts';
// Who a grant or a data scope belongs to, a user's roles and units (authorization); the active
// users (notifications); the pickers' directory, the units-below subquery and users' names
// (business data).
// Workflow assignees: members of roles and units, the leaders up the unit tree.
export { activeMembersOfRoles, activeMembersOfUnits, unitLeaderChain } from './directory.repository.ts';
export {
  activeUserIds,
  ancestorsOfUnit,
  findRoleSummary,
  findUnitSummary,
  findUserSummary,
  rolesOfUser,
  roleDirectory,
  unitDirectory,
  unitsAndAncestorsOfUser,
  unitsAndBelowSql,
  userDirectory,
  userDisplayNames,
  userHasRole,
} from './directory.repository.ts';
// Registration's default roles (settings).
export { roleChoices, setDefaultRoles } from './roles.repository.ts';
// Sign-in, registration and the user's own password (auth).
export {
  findAccountById,
  findAccountByUserName,
  insertRegisteredAccount,
  recordFailedSignIn,
  resetFailedSignIns,
  setOwnPasswordHash,
} from './accounts.repository.ts';
