/** What authorization registers into identity's registries (from its index.ts). */
import type { PrincipalRemovalHandler, RoleGrantCounter } from '../identity/index.ts';
import * as repo from './authorization.repository.ts';

const PROVIDER = { user: 'U', role: 'R', unit: 'OU' } as const;

/**
 * When identity removes users, roles or units, their own grants go (and a role's data scopes).
 * A removed role's audit entry has always listed the permissions it carried: reported back as
 * `grantedPermissions`.
 */
export const removeGrantsOfPrincipals: PrincipalRemovalHandler = async (trx, { kind, ids }) => {
  const names = await repo.deleteGrantsOfProviders(trx, PROVIDER[kind], ids);
  if (kind !== 'role') return;
  await repo.deleteDataScopesOfRoles(trx, ids);
  return { grantedPermissions: names };
};

/** The roles page's permission counts: a role's grants; the administrator role holds every definition. */
export const countGrantsOfRoles: RoleGrantCounter = async (db, roles) => {
  const counts = await repo.grantCountsOfRoles(db, roles.filter((r) => !r.isAdminRole).map((r) => r.id));
  if (roles.some((r) => r.isAdminRole)) {
    const all = await repo.definitionCount(db);
    for (const role of roles) if (role.isAdminRole) counts.set(role.id, all);
  }
  return counts;
};
