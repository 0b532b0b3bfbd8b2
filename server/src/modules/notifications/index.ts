/**
 * The notifications module's public entry: the only file other modules import from it.
 * Owns the table `notifications`; recipients are identity's users (through its index).
 * (`notifyUsers(trx, input)` in notifications.service.ts is the entry for a module that will send
 * notifications in its own transaction; export it here when the first one does.)
 */
export { notificationRoutes } from './notifications.routes.ts';
