/**
 * The api-keys module's public entry (personal API keys, issue 29): the only file other modules
 * import from it. Owns the table `api_keys`; the kernel's guard (platform/auth.ts, api-keys.ts)
 * reads it to authenticate a key, as it reads sessions.
 */
export { apiKeyRoutes } from './api-keys.routes.ts';
