import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZCaptcha,
  ZChangePasswordInput,
  ZLoginInput,
  ZLoginResponse,
  ZRegisterInput,
  ZRegisterResponse,
} from '@tessera/core/contracts/auth';
import { publicRoute, signedIn } from '../../platform/route-access.ts';
import { changePassword, login, logout, register } from './auth.service.ts';
import { issueCaptcha, type CaptchaFactory } from './captcha.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    captchaFactory?: CaptchaFactory;
  }
}

export async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const loginLimit = {
    max: app.config.loginRateLimit,
    timeWindow: '1 minute',
    hook: 'preHandler' as const,
    keyGenerator: (req: { ip: string; body?: unknown }) =>
      `${req.ip}:${String((req.body as { username?: unknown } | undefined)?.username ?? '').toLowerCase()}`,
  };

  app.post('/Auth/Login', {
    config: { ...publicRoute(), rateLimit: loginLimit },
    schema: { tags: ['auth'], summary: 'Sign in with user name and password', body: ZLoginInput, response: { 200: ZLoginResponse } },
    handler: (req) => login(app, req, req.body),
  });

  app.get('/register/captcha', {
    config: { ...publicRoute(), rateLimit: { max: 30, timeWindow: '1 minute' } },
    schema: { tags: ['auth'], summary: 'An arithmetic captcha for registration', response: { 200: ZCaptcha } },
    handler: () => issueCaptcha(app.db, app.captchaFactory),
  });

  app.post('/register', {
    config: { ...publicRoute(), rateLimit: { max: 10, timeWindow: '1 minute' } },
    schema: { tags: ['auth'], summary: 'Register and sign in at once', body: ZRegisterInput, response: { 200: ZRegisterResponse } },
    handler: (req) => register(app, req, req.body),
  });

  app.post('/account/my-profile/change-password', {
    config: signedIn(),
    schema: { tags: ['account'], summary: 'Change my password', body: ZChangePasswordInput, response: { 200: z.object({ message: z.string() }) } },
    handler: (req) => changePassword(app, req, req.body),
  });

  app.post('/Auth/Logout', {
    config: signedIn(),
    schema: { tags: ['auth'], summary: 'Sign out: the session is revoked at once', response: { 204: z.null() } },
    handler: async (req, reply) => {
      await logout(app, req);
      return reply.status(204).send(null);
    },
  });
}
