import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZCurrentUser, ZSystemDate } from '@tessera/core/contracts/auth';
import { signedIn } from '../../platform/route-access.ts';
import { currentUserOf } from '../auth/index.ts';

export async function systemRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/app/sys-function/current-user', {
    config: signedIn(),
    schema: { summary: 'The signed-in user with their access list', response: { 200: ZCurrentUser } },
    handler: async (req) => currentUserOf(req.ctx.user!),
  });

  // spec §4: date defaults use the server's date, not the browser's clock.
  app.get('/app/sys-function/system-date', {
    config: signedIn(),
    schema: { summary: 'The server date and time (ISO 8601)', response: { 200: ZSystemDate } },
    handler: async () => ({ date: new Date().toISOString(), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone }),
  });
}
