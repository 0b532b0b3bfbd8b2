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
  ZRegistrationOptions,
} from '@tessera/core/contracts/auth';
import { publicRoute, signedIn, signedInWithSession } from '../../platform/route-access.ts';
import { captchaOptions, changePassword, login, logout, register, registrationOptions } from './auth.service.ts';
import { issueCaptcha } from './captcha.service.ts';

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
    schema: { operationId: 'signIn', summary: 'Sign in with user name and password', body: ZLoginInput, response: { 200: ZLoginResponse } },
    handler: (req) => login(req.ctx, req.body),
  });

  app.get('/register/options', {
    config: publicRoute(),
    schema: { operationId: 'getRegistrationOptions', summary: 'Whether registration is open, and the password policy', response: { 200: ZRegistrationOptions } },
    handler: (req) => registrationOptions(req.ctx),
  });

  app.get('/register/captcha', {
    config: { ...publicRoute(), rateLimit: { max: 30, timeWindow: '1 minute' } },
    schema: {
      operationId: 'getRegistrationCaptcha',
      summary: 'A signed ALTCHA proof-of-work challenge for registration (valid 2 minutes, single use)',
      response: { 200: ZCaptcha },
    },
    handler: async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return issueCaptcha(captchaOptions(req.ctx));
    },
  });

  app.post('/register', {
    config: { ...publicRoute(), rateLimit: { max: 10, timeWindow: '1 minute' } },
    schema: { operationId: 'registerUser', summary: 'Register and sign in at once', body: ZRegisterInput, response: { 200: ZRegisterResponse } },
    handler: (req) => register(req.ctx, req.body),
  });

  app.post('/account/my-profile/change-password', {
    config: signedInWithSession(),
    schema: { summary: 'Change my password', body: ZChangePasswordInput, response: { 200: z.object({ message: z.string() }) } },
    handler: (req) => changePassword(req.ctx, req.body),
  });

  app.post('/Auth/Logout', {
    config: signedInWithSession(),
    schema: { operationId: 'signOut', summary: 'Sign out: the session is revoked at once', response: { 204: z.null() } },
    handler: async (req, reply) => {
      await logout(req.ctx);
      return reply.status(204).send(null);
    },
  });
}
