import { existsSync } from 'node:fs';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { AppConfig } from './config.ts';
import type { DatabaseKind } from './db/database.ts';
import type { Database } from './db/schema.ts';
import { AuthCache } from './platform/access.ts';
import { registerAuthGuard } from './platform/auth.ts';
import { registerRequestContext } from './platform/context.ts';
import { LiveSignals } from './platform/live-signals.ts';
import { registerDeploymentHeaders, transportOptions, withoutUpgradeInsecureRequests } from './platform/deployment.ts';
import { frameworkErrors, registerErrorHandling } from './platform/errors.ts';
import { registerInputGuard } from './platform/input-guard.ts';
import { moduleRoutes, openApiOptions } from './platform/openapi.ts';
import { publicRoute, type RouteAccess } from './platform/route-access.ts';
import { authRoutes } from './modules/auth/index.ts';
import { qrCodeRoutes, systemRoutes } from './modules/system/index.ts';
import { identityRoutes } from './modules/identity/index.ts';
import { authorizationRoutes } from './modules/authorization/index.ts';
import { businessMenuRoutes } from './modules/business-menus/index.ts';
import { auditRoutes } from './modules/audit/index.ts';
import { settingsRoutes } from './modules/settings/index.ts';
import { menuRoutes } from './modules/menus/index.ts';
import { notificationRoutes } from './modules/notifications/index.ts';
import { dictionaryRoutes } from './modules/dictionaries/index.ts';
import { documentNumberRoutes } from './modules/document-numbers/index.ts';
import { localizationRoutes } from './modules/localization/index.ts';
import { helpRoutes } from './modules/help/index.ts';
import { pageRoutes } from './modules/pages/index.ts';
import { businessDataRoutes, selectionItemRoutes } from './modules/business-data/index.ts';
import { fileRoutes } from './modules/files/index.ts';
import { apiKeyRoutes } from './modules/api-keys/index.ts';
import { workflowDefinitionRoutes, workflowInstanceRoutes, workflowTaskRoutes } from './modules/workflow/index.ts';
import { printTemplateRoutes } from './modules/print-templates/index.ts';
import { dataSourceRoutes } from './modules/data-sources/index.ts';
import { dataFactoryRoutes } from './modules/data-factory/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbKind: DatabaseKind;
    config: AppConfig;
    authCache: AuthCache;
    /** Live signals to the browsers this process streams to (platform/live-signals.ts). */
    live: LiveSignals;
    /** Every route as registered, for the route-guard test and the permission registry. */
    routeTable: { method: string | string[]; url: string; access: RouteAccess | undefined; sessionOnly: boolean }[];
  }
}

export type App = FastifyInstance;
export type TypedApp = ReturnType<FastifyInstance['withTypeProvider']> & FastifyInstance;

export interface BuildAppOptions {
  config: AppConfig;
  db: Kysely<Database>;
  dbKind: DatabaseKind;
  logger?: FastifyServerOptions['logger'];
  /** The process's live signals, listening on the database (prepareServer); without: streams stay quiet. */
  live?: LiveSignals;
  /** Extra routes registered after the modules (tests use it to add probes). */
  extend?: (app: FastifyInstance) => void | Promise<void>;
}

/** Builds the whole server (tests call this with `app.inject`); start-up order is explicit here. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors,
    ajv: undefined,
    ...transportOptions(config),
  } as FastifyServerOptions).withTypeProvider<ZodTypeProvider>();

  // 1. infrastructure
  app.decorate('db', options.db);
  app.decorate('dbKind', options.dbKind);
  app.decorate('config', config);
  app.decorate('authCache', new AuthCache(options.db));
  app.decorate('live', options.live ?? new LiveSignals());
  app.addHook('preClose', (done) => {
    app.live.endStreams();
    done();
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  // Graceful shutdown: requests in flight finish, and their keep-alive connections close after
  // the answer instead of holding the server open.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (request, reply) => {
    // HTTP/2 has no `connection` header (it is a protocol error there); its streams just end.
    if (closing && request.raw.httpVersionMajor < 2) reply.header('connection', 'close');
  });
  app.decorate('routeTable', []);
  app.addHook('onRoute', (route) => {
    // The OpenAPI UI is the one public area registered by a plugin.
    if (route.url.startsWith('/api/docs')) route.config = { ...route.config, ...publicRoute() };
    // Read when asked: a plugin's scope (the web app's files) may declare access after this hook.
    app.routeTable.push({
      method: route.method,
      url: route.url,
      get access() {
        return route.config?.access;
      },
      get sessionOnly() {
        return !!route.config?.sessionOnly;
      },
    });
  });
  // HSTS and upgrade-insecure-requests only for HTTPS requests (registerDeploymentHeaders).
  await app.register(helmet, {
    hsts: false,
    contentSecurityPolicy: {
      directives: {
        upgradeInsecureRequests: null,
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        // Printed PDFs are shown in a frame from a blob the app made itself (print templates).
        frameSrc: ["'self'", 'blob:'],
        frameAncestors: ["'self'"],
      },
    },
  });
  registerDeploymentHeaders(app);
  // API answers over 1 KB travel compressed (brotli at a cheap quality, or gzip); the web app's
  // assets are compressed at build time and served as they are (preCompressed below).
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(rateLimit, { global: false });
  // The OpenAPI document: components, security from each route's access, error answers (platform/openapi.ts).
  await app.register(swagger, openApiOptions(config));
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    // Its page links its files absolutely when opened without a trailing slash: under the base path.
    ...(config.basePath ? { indexPrefix: config.basePath } : {}),
    staticCSP: true,
    transformStaticCSP: withoutUpgradeInsecureRequests,
  });
  registerAuthGuard(app);
  registerRequestContext(app);
  registerInputGuard(app);

  // 2. modules
  await app.register(moduleRoutes('auth', authRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('system', systemRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('identity', identityRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('authorization', authorizationRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('business-menus', businessMenuRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('audit', auditRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('settings', settingsRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('menus', menuRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('notifications', notificationRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('dictionaries', dictionaryRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('document-numbers', documentNumberRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('system', qrCodeRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('localization', localizationRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('help', helpRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('pages', pageRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('business-data', businessDataRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('business-data', selectionItemRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('files', fileRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('workflow', workflowDefinitionRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('workflow', workflowInstanceRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('workflow', workflowTaskRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('api-keys', apiKeyRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('print-templates', printTemplateRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('data-sources', dataSourceRoutes), { prefix: '/api' });
  await app.register(moduleRoutes('data-factory', dataFactoryRoutes), { prefix: '/api' });
  if (options.extend) await app.register(async (scoped) => options.extend!(scoped));

  // 3. the built web app
  if (config.webDist && existsSync(config.webDist)) {
    await app.register(async (web) => {
      web.addHook('onRoute', (route) => {
        route.config = { ...route.config, ...publicRoute() };
      });
      await web.register(fastifyStatic, {
        root: config.webDist!,
        wildcard: false,
        // `.br` / `.gz` beside each asset (web/vite-precompress.ts), chosen by Accept-Encoding.
        preCompressed: true,
        setHeaders(res, filePath) {
          // Hashed assets never change; index.html must be fetched again to see a new build.
          if (filePath.includes('/assets/')) res.header('cache-control', 'public, max-age=31536000, immutable');
          else res.header('cache-control', 'no-cache');
        },
      });
    });
  }
  return app;
}
