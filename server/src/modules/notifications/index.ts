/**
 * The notifications module's public entry: the only file other modules import from it.
 * Owns the table `notifications`; recipients are identity's users (through its index).
 * `notifyUsers(trx, input)` sends notifications in the caller's transaction (workflow reminders).
 */
export { notificationRoutes } from './notifications.routes.ts';
export { notifyUsers } from './notifications.service.ts';
