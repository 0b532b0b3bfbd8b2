/**
 * The principal-removal registry: a user, role or organisation unit is removed by identity, and
 * modules above it that keep rows about principals (authorization's grants and data scopes) clean
 * them up in the same transaction. They register from their own `index.ts`, so identity never
 * imports them (docs/architecture.md, "Modules and their entries").
 */
import type { Db } from '../../platform/context.ts';

export type PrincipalKind = 'user' | 'role' | 'unit';

export interface PrincipalRemoval {
  readonly kind: PrincipalKind;
  readonly ids: readonly string[];
}

/**
 * Runs inside identity's delete transaction (`trx`), before the principal's own rows go. It may
 * answer facts about what it removed for the principal's audit entry (e.g. `grantedPermissions`);
 * they are added to the entry's `before`.
 */
export type PrincipalRemovalHandler = (trx: Db, removal: PrincipalRemoval) => Promise<void | Record<string, unknown>>;

const handlers: PrincipalRemovalHandler[] = [];

/** Registers a handler (once; registering the same function again changes nothing). */
export function registerPrincipalRemovalHandler(handler: PrincipalRemovalHandler): void {
  if (!handlers.includes(handler)) handlers.push(handler);
}

/** Runs every handler in registration order; answers what they reported, merged. */
export async function removePrincipals(trx: Db, removal: PrincipalRemoval): Promise<Record<string, unknown>> {
  const reported: Record<string, unknown> = {};
  if (removal.ids.length === 0) return reported;
  for (const handler of handlers) Object.assign(reported, (await handler(trx, removal)) ?? {});
  return reported;
}
