import type { PrincipalRemovalHandler } from '../identity/index.ts';
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
