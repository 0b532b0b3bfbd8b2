/**
 * The auth module's public entry (sign-in, registration, sign-out, my password): the only file
 * other modules import from it. Owns the table `captcha_uses`; accounts are identity's (through
 * its index) and sessions the kernel's (platform/auth.ts).
 */
export { authRoutes } from './auth.routes.ts';
// For the system module's current-user answer.
export { currentUserOf } from './auth.service.ts';
