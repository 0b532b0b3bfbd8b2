import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParam } from '@tessera/core/contracts/common';
import {
  ZMarkAllReadInput,
  ZMarkAllReadResult,
  ZNotificationList,
  ZNotificationQuery,
  ZSendNotificationInput,
  ZSendNotificationResult,
  ZUnreadCounts,
} from '@tessera/core/contracts/notifications';
import { P } from '@tessera/core/contracts/permissions';
import { requirePermission, signedIn } from '../../platform/route-access.ts';
import { streamLiveSignals } from './live-stream.ts';
import './notifications.permissions.ts';
import {
  listMyNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  sendNotification,
  unreadCounts,
} from './notifications.service.ts';

export async function notificationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/app/notifications', {
    config: signedIn(),
    schema: { summary: 'My notifications, newest first (type notice/message/todo), with unread counts', querystring: ZNotificationQuery, response: { 200: ZNotificationList } },
    handler: (req) => listMyNotifications(req.ctx, req.query),
  });

  app.get('/app/notifications/unread-count', {
    config: signedIn(),
    schema: { summary: 'My unread notifications per type (header badge, title prefix)', response: { 200: ZUnreadCounts } },
    handler: (req) => unreadCounts(req.ctx),
  });

  app.get('/app/notifications/live', {
    config: signedIn(),
    schema: { operationId: 'streamNotifications', summary: 'Server-sent events for the caller: `todo` (their to-do tasks changed), `notifications` (their notifications changed), `resync` (signals may have been missed): read the counts again; the stream ends after 5 minutes (connect again)' },
    handler: (req, reply) => streamLiveSignals(req, reply),
  });

  app.post('/app/notifications/:id/read', {
    config: signedIn(),
    schema: { summary: 'Mark one of my notifications read', params: ZIdParam, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await markNotificationRead(req.ctx, req.params.id);
      return reply.status(204).send(null);
    },
  });

  app.post('/app/notifications/read-all', {
    config: signedIn(),
    schema: { operationId: 'readAllNotifications', summary: 'Mark all my notifications (of one type) read', body: ZMarkAllReadInput.nullish(), response: { 200: ZMarkAllReadResult } },
    handler: (req) => markAllNotificationsRead(req.ctx, req.body?.type),
  });

  app.post('/app/notifications', {
    config: requirePermission(P.NotificationsSend),
    schema: { operationId: 'sendNotification', summary: 'Send a notice, message or to-do to users (or to every active user)', body: ZSendNotificationInput, response: { 200: ZSendNotificationResult } },
    handler: (req) => sendNotification(req.ctx, req.body),
  });
}
