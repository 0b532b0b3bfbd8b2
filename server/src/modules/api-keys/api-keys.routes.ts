import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAdminApiKeyList,
  ZAdminApiKeyQuery,
  ZApiKeyCodeGroups,
  ZApiKeyCreated,
  ZApiKeyCreateInput,
  ZApiKeyList,
} from '@tessera/core/contracts/api-keys';
import { ZIdParam } from '@tessera/core/contracts/common';
import { P } from '@tessera/core/contracts/permissions';
import { requirePermission, signedInWithSession } from '../../platform/route-access.ts';
import './api-keys.permissions.ts';
import { createMyKey, listAllKeys, listMyKeys, myKeyCodes, revokeAnyKey, revokeMyKey } from './api-keys.service.ts';

export async function apiKeyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // A person's own keys, managed with their session only: a key cannot make or keep keys.
  app.get('/app/my-api-keys', {
    config: signedInWithSession(),
    schema: { summary: 'My personal API keys (never the keys themselves)', response: { 200: ZApiKeyList } },
    handler: (req) => listMyKeys(req.ctx),
  });

  app.get('/app/my-api-keys/codes', {
    config: signedInWithSession(),
    schema: { summary: 'The permission codes I hold, which a new key may be narrowed to', response: { 200: ZApiKeyCodeGroups } },
    handler: (req) => myKeyCodes(req.ctx),
  });

  app.post('/app/my-api-keys', {
    config: signedInWithSession(),
    schema: { summary: 'Create a personal API key: the key is in this answer only', body: ZApiKeyCreateInput, response: { 200: ZApiKeyCreated } },
    handler: (req) => createMyKey(req.ctx, req.body),
  });

  app.delete('/app/my-api-keys/:id', {
    config: signedInWithSession(),
    schema: { operationId: 'revokeMyApiKey', summary: 'Revoke one of my keys (refused from the next call on)', params: ZIdParam, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await revokeMyKey(req.ctx, req.params.id);
      return reply.status(204).send(null);
    },
  });

  app.get('/app/api-keys', {
    config: requirePermission(P.ApiKeys),
    schema: { summary: "Every user's API keys (filter by name, prefix or user name; status; paged)", querystring: ZAdminApiKeyQuery, response: { 200: ZAdminApiKeyList } },
    handler: (req) => listAllKeys(req.ctx, req.query),
  });

  app.post('/app/api-keys/:id/revoke', {
    config: requirePermission(P.ApiKeysRevoke),
    schema: { summary: "Revoke any user's key", params: ZIdParam, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await revokeAnyKey(req.ctx, req.params.id);
      return reply.status(204).send(null);
    },
  });
}
