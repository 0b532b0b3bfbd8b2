import { z } from 'zod';
import { zText } from './text.ts';
import { ZPasswordPolicy } from './auth.ts';

/** The system settings page (system management → system settings). */
export const ZSystemSettings = z.object({
  registration: z.object({
    /** Off on a new installation. */
    isEnabled: z.boolean(),
    /** The roles a registered user gets (the roles' own "default" flag; never the admin role). */
    defaultRoleIds: z.array(z.uuid()).max(100),
  }),
  passwordPolicy: ZPasswordPolicy,
});
export type TSystemSettings = z.infer<typeof ZSystemSettings>;

/** The settings and what the page needs to edit them: the roles a registered user may get. */
export const ZSystemSettingsView = ZSystemSettings.extend({
  roles: z.array(z.object({ id: zText(), name: zText(), isAdmin: z.boolean() })),
});
export type TSystemSettingsView = z.infer<typeof ZSystemSettingsView>;
