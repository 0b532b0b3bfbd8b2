import { z } from 'zod';
import { zText } from './text.ts';
import { text, ZPagedQuery } from './common.ts';

/** spec §2 header notifications: the tabs notice, message and to-do. */
export const NOTIFICATION_TYPES = ['notice', 'message', 'todo'] as const;
export const ZNotificationType = z.enum(NOTIFICATION_TYPES);
export type TNotificationType = z.infer<typeof ZNotificationType>;

export const ZNotification = z.object({
  id: zText(),
  type: ZNotificationType,
  title: zText(),
  content: zText(),
  /** An in-app path (`/flows/assignTask`) the notification leads to, if any. */
  link: zText().nullable(),
  isRead: z.boolean(),
  readTime: zText().nullable(),
  creationTime: zText(),
  senderName: zText().nullable(),
});
export type TNotification = z.infer<typeof ZNotification>;

/** Unread notifications of the caller, per type and in total (header badge, `(n条消息)` title prefix). */
export const ZUnreadCounts = z.object({
  notice: z.number().int(),
  message: z.number().int(),
  todo: z.number().int(),
  total: z.number().int(),
});
export type TUnreadCounts = z.infer<typeof ZUnreadCounts>;

/** The caller's notifications, newest first; `type` and `isRead` narrow the list. */
export const ZNotificationQuery = ZPagedQuery.omit({ Sorting: true }).extend({
  type: ZNotificationType.optional(),
  isRead: z.stringbool().optional(),
});
export type TNotificationQuery = z.infer<typeof ZNotificationQuery>;

export const ZNotificationList = z.object({
  items: z.array(ZNotification),
  totalCount: z.number().int(),
  unread: ZUnreadCounts,
});
export type TNotificationList = z.infer<typeof ZNotificationList>;

export const ZMarkAllReadInput = z.object({ type: ZNotificationType.optional() });
export const ZMarkAllReadResult = z.object({ count: z.number().int() });

/** Sending a notification (an announcement, a message): to listed users or to every active user. */
export const ZSendNotificationInput = z
  .object({
    type: ZNotificationType,
    title: text(200).min(1),
    content: text(4000).default(''),
    link: z
      .string()
      .trim()
      .max(500)
      .regex(/^\/(?![/\\])/, 'an in-app path starting with a single /')
      .nullish(),
    userIds: z.array(z.uuid()).min(1).max(1000).optional(),
    allUsers: z.boolean().optional(),
  })
  .refine((v) => Boolean(v.userIds?.length) !== Boolean(v.allUsers), {
    message: 'give either userIds or allUsers',
    path: ['userIds'],
  });
export type TSendNotificationInput = z.input<typeof ZSendNotificationInput>;
export const ZSendNotificationResult = z.object({ count: z.number().int() });
