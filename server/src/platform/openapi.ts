import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance, FastifyPluginAsync, FastifySchema, RouteOptions } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { AppConfig } from '../config.ts';
import { deriveOperationId } from './openapi-operation-id.ts';

/**
 * The OpenAPI document served at /api/docs/json (OpenAPI 3.1: zod 4 writes JSON Schema 2020-12,
 * where `null` is a type). It is generated from the routes' zod contracts; this file adds what the
 * contracts do not say: who may call an operation (from `config.access`), the error answers every
 * operation may give, an operationId and the module an operation belongs to. It never changes how
 * a request is validated or an answer serialized.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The server module (folder name) a route belongs to: its OpenAPI tag. */
    module?: string;
  }
}

/** The modules, in the order the document lists them, with what each does for a caller. */
export const MODULE_DESCRIPTIONS: Record<string, string> = {
  auth: 'Sign-in and sign-out, self-registration, the signed-in user\'s password',
  system: 'Server time, the current user, QR codes',
  identity: 'Users, roles and organisation units',
  authorization: 'Permission definitions, grants and data scopes',
  'business-menus': 'The menus that open business pages',
  audit: 'The audit log',
  settings: 'System settings',
  menus: 'The system menus a user may open',
  notifications: 'Notices, messages and to-dos to users, and their live stream',
  dictionaries: 'Business and system dictionaries',
  'document-numbers': 'Document number rules, issued numbers and reservations',
  localization: 'Language packs and texts',
  help: 'Help documents',
  pages: 'Page definitions: design, versions, publishing',
  'business-data': 'Records of published pages: query, save, delete, history, Excel import and export, pickers',
  files: 'Attachments and images of business records',
  workflow: 'Workflow definitions, running instances and tasks',
  'print-templates': 'Print templates bound to pages, and PDFs of records printed with them',
  'data-sources': 'External databases (PostgreSQL, MySQL / MariaDB): connections, browsing and queries with named parameters',
  'data-factory': 'PL/pgSQL functions in the product\'s database (schema factory): versions with diffs and rollback, runs with typed values and a run log',
  'api-keys': 'Personal API keys: a user\'s own (with a session only) and every user\'s for administrators',
};

const ERROR_SCHEMA = { $ref: '#/components/schemas/Error' };

/** Registers a module's routes plugin with the module's name on each of its routes. */
export function moduleRoutes(module: string, routes: FastifyPluginAsync): FastifyPluginAsync {
  return async (scope: FastifyInstance) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, module };
    });
    await scope.register(routes);
  };
}

type Schema = Record<string, unknown>;
interface Operation {
  operationId?: string;
  tags?: string[];
}
interface Document {
  paths?: Record<string, Partial<Record<(typeof METHODS)[number], Operation>> | undefined>;
  components?: { schemas?: Record<string, unknown> };
  tags?: { name: string; description?: string }[];
}
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/** The client errors an operation may answer with, all in the product's error shape (platform/errors.ts). */
function errorResponses(route: RouteOptions, schema: Schema): Record<string, Schema> {
  const access = route.config?.access;
  const responses: Record<string, Schema> = {};
  if (schema.body || schema.querystring || schema.params || schema.headers) {
    responses[400] = { ...ERROR_SCHEMA, description: 'The request is invalid; `validationErrors` names each offending member.' };
  }
  if (access?.kind !== 'public') {
    responses[401] = { ...ERROR_SCHEMA, description: 'No valid session token or API key.' };
  }
  // A route that declares no access is refused for everyone (fail closed): a 403 too.
  if (access?.kind !== 'public' && access?.kind !== 'signedIn') {
    responses[403] = { ...ERROR_SCHEMA, description: 'The caller does not hold the permission this operation needs.' };
  }
  if (route.config?.sessionOnly) responses[403] = { ...ERROR_SCHEMA, description: 'Called with a personal API key: this operation needs a session.' };
  if (route.url.includes(':')) responses[404] = { ...ERROR_SCHEMA, description: 'Nothing with this id (or the caller may not see it).' };
  if (route.config?.rateLimit) responses[429] = { ...ERROR_SCHEMA, description: 'Too many requests; try again later.' };
  else if (access?.kind !== 'public' && !route.config?.sessionOnly) {
    responses[429] = { ...ERROR_SCHEMA, description: 'A personal API key past its per-minute budget; `Retry-After` says when to try again.' };
  }
  const declared = Object.keys((schema.response as Schema | undefined) ?? {});
  // A download, an image or an event stream: its body has no contract, the summary says what it is.
  if (!declared.some((status) => status.startsWith('2'))) responses[200] = { description: 'Success: what the summary describes (a file, an image, an event stream).' };
  responses['4XX'] = { ...ERROR_SCHEMA, description: 'Any other client error (a malformed URL, a body too large or of an unsupported type, a conflict).' };
  return responses;
}

type Transform = NonNullable<FastifyDynamicSwaggerOptions['transform']>;
type TransformObject = NonNullable<FastifyDynamicSwaggerOptions['transformObject']>;

const zodTransform = createJsonSchemaTransform({});
const zodTransformObject = createJsonSchemaTransformObject({});

const transform: Transform = (input) => {
  const result = zodTransform(input);
  const schema: Schema = { ...(result.schema as Schema | undefined) };
  if (schema.hide) return result;
  const route = input.route as RouteOptions;
  const access = route.config?.access;
  if (route.config?.module) schema.tags = [route.config.module];
  // Keys cannot manage keys, the password or the session: those take the session's token only.
  schema.security = access?.kind === 'public' ? [] : route.config?.sessionOnly ? [{ bearer: [] }] : [{ bearer: [] }, { apiKey: [] }];
  schema.response = { ...errorResponses(route, schema), ...(schema.response as Schema | undefined) };
  return { schema: schema as FastifySchema, url: result.url };
};

const transformObject: TransformObject = (input) => {
  const document = zodTransformObject(input) as Document;
  const paths = document.paths ?? {};
  const pathList = Object.keys(paths);
  const isCollection = (path: string) => pathList.some((other) => other.startsWith(`${path}/{`) && !other.slice(path.length + 1).includes('/'));
  const used = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (!operation) continue;
      operation.operationId ??= deriveOperationId(method, path, isCollection);
      for (const tag of operation.tags ?? []) used.add(tag);
    }
  }
  const order = Object.keys(MODULE_DESCRIPTIONS);
  document.tags = [...used]
    .sort((a, b) => (order.indexOf(a) + 1 || order.length + 1) - (order.indexOf(b) + 1 || order.length + 1))
    .map((name) => ({ name, ...(MODULE_DESCRIPTIONS[name] ? { description: MODULE_DESCRIPTIONS[name] } : {}) }));
  mergeEqualAnyOf(document);
  dropUnusedSchemas(document);
  return document as ReturnType<TransformObject>;
};

/**
 * `anyOf` members that are the same schema said once. A contract that accepts a value or its text
 * (`z.union([z.literal(1), z.literal(2)]).or(z.preprocess(Number, …))`) documents both branches
 * alike, since JSON Schema cannot show the conversion.
 */
function mergeEqualAnyOf(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(mergeEqualAnyOf);
  if (!node || typeof node !== 'object') return;
  const schema = node as Schema;
  for (const value of Object.values(schema)) mergeEqualAnyOf(value);
  if (!Array.isArray(schema.anyOf)) return;
  const seen = new Set<string>();
  const members = (schema.anyOf as unknown[]).filter((member) => {
    const key = JSON.stringify(member);
    return seen.has(key) ? false : (seen.add(key), true);
  });
  if (members.length === 1 && Object.keys(schema).length === 1) {
    delete schema.anyOf;
    Object.assign(schema, members[0]);
  } else {
    schema.anyOf = members;
  }
}

/**
 * Every schema registered with an id becomes a component for input and for output
 * (`BusinessMenuInput`, `BusinessMenu`); only those an operation reaches are kept.
 */
function dropUnusedSchemas(document: Document): void {
  const schemas = document.components?.schemas;
  if (!schemas) return;
  const reached = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.slice('#/components/schemas/'.length);
        if (!reached.has(name)) {
          reached.add(name);
          visit(schemas[name]);
        }
      } else {
        visit(value);
      }
    }
  };
  visit(document.paths);
  for (const name of Object.keys(schemas)) if (!reached.has(name)) delete schemas[name];
}

/** The options of @fastify/swagger. */
export function openApiOptions(config: AppConfig): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Tessera API', version: '0.1.0', description: 'Tessera low-code platform' },
      // Relative: the document is right wherever the product is served, under its base path too.
      servers: [{ url: config.basePath || '/' }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'A session token from sign-in (`POST /api/Auth/Login`) or a personal API key.',
          },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A personal API key.' },
        },
      },
    },
    transform,
    transformObject,
  };
}
