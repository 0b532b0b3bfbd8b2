import type { Insertable, Kysely } from 'kysely';
import type { TNotificationType } from '@tessera/core/contracts/notifications';
import type { Database, NotificationsTable } from '../../db/schema.ts';

type Db = Kysely<Database>;

export interface NotificationFilter {
  type?: TNotificationType;
  isRead?: boolean;
}

function mine(db: Db, userId: string, filter: NotificationFilter) {
  let q = db.selectFrom('notifications').where('user_id', '=', userId);
  if (filter.type) q = q.where('type', '=', filter.type);
  if (filter.isRead !== undefined) q = q.where('is_read', '=', filter.isRead);
  return q;
}

export function listNotifications(db: Db, userId: string, filter: NotificationFilter, window: { offset: number; limit: number }) {
  return mine(db, userId, filter)
    .selectAll()
    .orderBy('creation_time', 'desc')
    .orderBy('id', 'desc')
    .offset(window.offset)
    .limit(window.limit)
    .execute();
}

export async function countNotifications(db: Db, userId: string, filter: NotificationFilter): Promise<number> {
  const row = await mine(db, userId, filter).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export function unreadByType(db: Db, userId: string) {
  return db
    .selectFrom('notifications')
    .select(['type', (eb) => eb.fn.countAll<string>().as('n')])
    .where('user_id', '=', userId)
    .where('is_read', '=', false)
    .groupBy('type')
    .execute();
}

export function markRead(db: Db, userId: string, id: string, at: Date) {
  return db
    .updateTable('notifications')
    .set({ is_read: true, read_time: at })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('is_read', '=', false)
    .executeTakeFirst();
}

/** Marks read the user's unread notifications with one of these links. */
export async function markReadByLinks(db: Db, userId: string, links: readonly string[], at: Date): Promise<number> {
  if (links.length === 0) return 0;
  const result = await db
    .updateTable('notifications')
    .set({ is_read: true, read_time: at })
    .where('user_id', '=', userId)
    .where('is_read', '=', false)
    .where('link', 'in', [...links])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export function findOwn(db: Db, userId: string, id: string) {
  return db.selectFrom('notifications').select(['id', 'is_read']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export async function markAllRead(db: Db, userId: string, type: TNotificationType | undefined, at: Date): Promise<number> {
  let q = db.updateTable('notifications').set({ is_read: true, read_time: at }).where('user_id', '=', userId).where('is_read', '=', false);
  if (type) q = q.where('type', '=', type);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export function insertNotifications(db: Db, rows: Insertable<NotificationsTable>[]) {
  return db.insertInto('notifications').values(rows).execute();
}
