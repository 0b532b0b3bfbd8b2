/**
 * The settings module's public entry (the system-settings page): the only file other modules
 * import from it. It keeps its values (`registration.enabled`, `passwordPolicy`) in the kernel's
 * `settings` table through platform/settings.ts, which owns that table; registration's default
 * roles are a flag on identity's roles, set through identity's index.
 */
export { settingsRoutes } from './settings.routes.ts';
