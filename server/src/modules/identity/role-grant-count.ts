/**
 * The role-grant-count registry: the roles page shows how many permissions each role carries, but
 * grants are authorization's. Authorization registers the counter from its `index.ts`; identity
 * never imports it. Without a counter every role shows 0.
 */
import type { Db } from '../../platform/context.ts';

/** Counts the permissions of the roles (the administrator role: every defined permission). */
export type RoleGrantCounter = (db: Db, roles: readonly { id: string; isAdminRole: boolean }[]) => Promise<ReadonlyMap<string, number>>;

let counter: RoleGrantCounter | null = null;

export function registerRoleGrantCounter(count: RoleGrantCounter): void {
  counter = count;
}

export async function grantCountsOfRoles(db: Db, roles: readonly { id: string; isAdminRole: boolean }[]): Promise<ReadonlyMap<string, number>> {
  if (!counter || roles.length === 0) return new Map();
  return counter(db, roles);
}
