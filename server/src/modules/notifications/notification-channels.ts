/**
 * Notification channels (issue 14): a message for users is handed to every registered channel.
 * The in-app channel (the `notifications` table, read by the header bell and the message centre)
 * is registered by default; DingTalk / WeCom / mail channels register themselves the same way at
 * start-up (`registerNotificationChannel`) without touching the senders.
 */
import type { Kysely } from 'kysely';
import type { TNotificationType } from '@tessera/core/contracts/notifications';
import type { Database } from '../../db/schema.ts';
import { notifyUsers } from './notifications.service.ts';

type Db = Kysely<Database>;

/** What a module sends; each channel renders it its own way. */
export interface UserNotification {
  userIds: string[];
  /** The in-app box it lands in: `todo` (something to do), `message` (news about my things), `notice`. */
  type: TNotificationType;
  title: string;
  content?: string;
  /** An in-app path (`/flows/assignTask?taskId=…`); an external channel makes it absolute. */
  link?: string | null;
  sender?: { id: string; name: string } | null;
  /** What happened, for channels that template or filter by it: `workflow.task`, `workflow.approved`, … */
  event: string;
}

/**
 * A delivery channel. `deliver` runs inside the sender's transaction (`db` is it): a message is
 * sent exactly when the change that caused it commits. So a channel must not call out to a remote
 * service here (a rollback would leave a message about nothing, and a slow service would hold the
 * transaction's locks): an external channel such as DingTalk or WeCom enqueues a durable job in the
 * same transaction (`enqueueJob(db, { queue: 'notify.dingtalk', payload: message })`,
 * platform/jobs.ts) and its job handler calls the service with retries. A channel that throws
 * rolls the sender's change back; one that may fail for a single user should skip that user.
 */
export interface NotificationChannel {
  name: string;
  deliver(db: Db, message: UserNotification): Promise<void>;
}

const channels = new Map<string, NotificationChannel>();

/** Adds (or replaces, by name) a channel; answers a function that removes it again (tests). */
export function registerNotificationChannel(channel: NotificationChannel): () => void {
  channels.set(channel.name, channel);
  return () => {
    if (channels.get(channel.name) === channel) channels.delete(channel.name);
  };
}

export const inAppChannel: NotificationChannel = {
  name: 'inApp',
  async deliver(db, message) {
    await notifyUsers(db, message);
  },
};
registerNotificationChannel(inAppChannel);

/** Hands the message to every registered channel in the caller's transaction. */
export async function sendUserNotification(db: Db, message: UserNotification): Promise<void> {
  const userIds = [...new Set(message.userIds)];
  if (userIds.length === 0) return;
  const normalised = { ...message, userIds, title: message.title.slice(0, 200) };
  for (const channel of channels.values()) await channel.deliver(db, normalised);
}
