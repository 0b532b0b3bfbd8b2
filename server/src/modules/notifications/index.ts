/**
 * The notifications module's public entry: the only file other modules import from it.
 * Owns the table `notifications`; recipients are identity's users (through its index).
 * `sendUserNotification(trx, message)` hands a message to every registered channel (in-app by
 * default; DingTalk / WeCom register with `registerNotificationChannel`) in the caller's
 * transaction; `notifyUsers` writes the in-app rows only; `markNotificationsDone` marks read the
 * notifications whose link points at work now done (a handled to-do task).
 */
export { notificationRoutes } from './notifications.routes.ts';
export { markNotificationsDone, notifyUsers } from './notifications.service.ts';
export {
  inAppChannel,
  registerNotificationChannel,
  sendUserNotification,
  type NotificationChannel,
  type UserNotification,
} from './notification-channels.ts';
