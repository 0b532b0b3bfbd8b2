import type { Kysely } from 'kysely';
import { notificationsInvalid } from './notifications.messages.ts';
import { personDisplayName } from '@tessera/core/helpers/person-name';
import { uuidv7 } from '../../platform/ids.ts';
import type {
  TNotification,
  TNotificationList,
  TNotificationQuery,
  TNotificationType,
  TSendNotificationInput,
  TUnreadCounts,
} from '@tessera/core/contracts/notifications';
import type { Database } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import { notFound, unauthorized } from '../../platform/errors.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { activeUserIds } from '../identity/index.ts';
import * as repo from './notifications.repository.ts';

type Db = Kysely<Database>;
type Row = Awaited<ReturnType<typeof repo.listNotifications>>[number];

const toNotification = (r: Row): TNotification => ({
  id: r.id,
  type: r.type,
  title: r.title,
  content: r.content,
  link: r.link,
  isRead: r.is_read,
  readTime: r.read_time ? r.read_time.toISOString() : null,
  creationTime: r.creation_time.toISOString(),
  senderName: r.creator_name,
});

/** The signed-in caller (these are "my notifications"). */
function me(ctx: ServiceContext) {
  if (!ctx.user) throw unauthorized();
  return ctx.user;
}

export async function unreadCounts(ctx: ServiceContext): Promise<TUnreadCounts> {
  return unreadCountsOf(ctx.db, me(ctx).id);
}

async function unreadCountsOf(db: Db, userId: string): Promise<TUnreadCounts> {
  const counts: TUnreadCounts = { notice: 0, message: 0, todo: 0, total: 0 };
  for (const row of await repo.unreadByType(db, userId)) {
    counts[row.type] = Number(row.n);
    counts.total += Number(row.n);
  }
  return counts;
}

export async function listMyNotifications(ctx: ServiceContext, q: TNotificationQuery): Promise<TNotificationList> {
  const db = ctx.db;
  const user = me(ctx);
  const filter = { type: q.type, isRead: q.isRead };
  const [rows, totalCount, unread] = [
    await repo.listNotifications(db, user.id, filter, { offset: q.SkipCount, limit: q.MaxResultCount }),
    await repo.countNotifications(db, user.id, filter),
    await unreadCountsOf(db, user.id),
  ];
  return { items: rows.map(toNotification), totalCount, unread };
}

export async function markNotificationRead(ctx: ServiceContext, id: string): Promise<void> {
  const user = me(ctx);
  const own = await repo.findOwn(ctx.db, user.id, id);
  // Another user's notification is as absent as a missing one.
  if (!own) throw notFound();
  if (!own.is_read) await repo.markRead(ctx.db, user.id, id, new Date());
}

export async function markAllNotificationsRead(ctx: ServiceContext, type: TNotificationType | undefined) {
  return { count: await repo.markAllRead(ctx.db, me(ctx).id, type, new Date()) };
}

export interface NotifyInput {
  type: TNotificationType;
  title: string;
  content?: string;
  link?: string | null;
  userIds: string[];
  sender?: { id: string; name: string } | null;
}

/**
 * For other modules (workflow to-dos, announcements): one row per recipient, in the caller's
 * transaction (`db` is it, when there is one).
 */
export async function notifyUsers(db: Db, input: NotifyInput): Promise<number> {
  const recipients = [...new Set(input.userIds)];
  if (recipients.length === 0) return 0;
  const now = new Date();
  const rows = recipients.map((userId) => ({
    id: uuidv7(),
    user_id: userId,
    type: input.type,
    title: input.title,
    content: input.content ?? '',
    link: input.link ?? null,
    creation_time: now,
    creator_id: input.sender?.id ?? null,
    creator_name: input.sender?.name ?? null,
  }));
  // Bounded batches keep one statement's parameter count well under PostgreSQL's limit.
  for (let i = 0; i < rows.length; i += 1000) await repo.insertNotifications(db, rows.slice(i, i + 1000));
  return rows.length;
}

/**
 * For other modules: the notifications that pointed at something now dealt with (a to-do task
 * handled, passed on or cancelled) are marked read, in the caller's transaction — the bell's to-do
 * count then follows the work, not the clicks.
 */
export async function markNotificationsDone(db: Db, items: readonly { userId: string; link: string }[], at = new Date()): Promise<void> {
  const byUser = new Map<string, string[]>();
  for (const item of items) byUser.set(item.userId, [...(byUser.get(item.userId) ?? []), item.link]);
  for (const [userId, links] of byUser) await repo.markReadByLinks(db, userId, links, at);
}

export async function sendNotification(ctx: ServiceContext, input: TSendNotificationInput & { content: string }) {
  const sender = me(ctx);
  let userIds: string[];
  if (input.allUsers) {
    userIds = await activeUserIds(ctx.db);
  } else {
    const wanted = [...new Set(input.userIds ?? [])];
    userIds = await activeUserIds(ctx.db, wanted);
    const missing = wanted.filter((id) => !userIds.includes(id));
    if (missing.length) {
      throw notificationsInvalid(ctx, 'unknownUsers', ['userIds'], { ids: missing.slice(0, 5).join(', ') });
    }
  }
  const count = await ctx.db
    .transaction()
    .execute((trx) =>
      notifyUsers(trx, { ...input, userIds, sender: { id: sender.id, name: personDisplayName(sender, ctx.culture) } }),
    );
  await recordAudit(ctx, 'Created', {
    entityType: 'Notification',
    details: { after: { type: input.type, title: input.title, link: input.link ?? null, recipients: count, allUsers: Boolean(input.allUsers) } },
  });
  return { count };
}
