import type { TSystemSettings, TSystemSettingsView } from '@tessera/core/contracts/settings';
import { recordAudit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { guardDelegation } from '../../platform/delegation.ts';
import { invalid } from '../../platform/errors.ts';
import { PASSWORD_POLICY, passwordPolicy } from '../../platform/passwords.ts';
import { isRegistrationEnabled, REGISTRATION_ENABLED, writeSetting } from '../../platform/settings.ts';
import { roleChoices, setDefaultRoles } from '../identity/index.ts';

const TEXT = {
  'zh-CN': { unknownRole: '角色不存在', adminRole: '管理员角色不能作为注册用户的默认角色' },
  'en-US': { unknownRole: 'The role does not exist', adminRole: 'The administrator role cannot be a default role for registered users' },
} as const;

export async function getSystemSettings(ctx: ServiceContext): Promise<TSystemSettingsView> {
  const roles = await roleChoices(ctx.db);
  return {
    registration: { isEnabled: await isRegistrationEnabled(ctx.db), defaultRoleIds: roles.filter((r) => r.isDefault).map((r) => r.id) },
    passwordPolicy: await passwordPolicy(ctx.db),
    roles: roles.map(({ id, name, isAdmin }) => ({ id, name, isAdmin })),
  };
}

/** Saves the page in one transaction: registration on/off, its default roles, the password policy. */
export async function updateSystemSettings(ctx: ServiceContext, input: TSystemSettings): Promise<TSystemSettingsView> {
  const text = TEXT[ctx.culture];
  const roles = new Map((await roleChoices(ctx.db)).map((r) => [r.id, r]));
  const roleIds = [...new Set(input.registration.defaultRoleIds)];
  roleIds.forEach((id, i) => {
    const role = roles.get(id);
    if (!role) throw invalid(text.unknownRole, [`registration.defaultRoleIds.${i}`]);
    if (role.isAdmin) throw invalid(text.adminRole, [`registration.defaultRoleIds.${i}`]);
  });
  // Roles newly made default go to every self-registered account: only within the caller's reach.
  const madeDefault = roleIds.filter((id) => !roles.get(id)!.isDefault);
  await guardDelegation(ctx.db, ctx, { roleIds: madeDefault });
  const before = await getSystemSettings(ctx);
  await ctx.db.transaction().execute(async (trx) => {
    await writeSetting(trx, REGISTRATION_ENABLED, input.registration.isEnabled);
    await writeSetting(trx, PASSWORD_POLICY, input.passwordPolicy);
    // The flag belongs to the role (identity's): the roles page shows the same.
    await setDefaultRoles(trx, roleIds);
  });
  const after = await getSystemSettings(ctx);
  const view = ({ registration, passwordPolicy }: TSystemSettings) => ({ registration, passwordPolicy });
  await recordAudit(ctx, 'Updated', { entityType: 'SystemSettings', details: { before: view(before), after: view(after) } });
  return after;
}
