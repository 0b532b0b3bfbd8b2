import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZCreatePermissionDefinitionInput,
  ZDataScopeList,
  ZDataScopeQuery,
  ZPagePermissionsInput,
  ZPagePermissionsResult,
  ZPermissionDefinition,
  ZPermissionDefinitionGroupList,
  ZPermissionDefinitionList,
  ZPermissionDefinitionQuery,
  ZPermissionListResult,
  ZPermissionNameParam,
  ZPermissionProviderQuery,
  ZUpdateDataScopesInput,
  ZUpdatePermissionDefinitionInput,
  ZUpdatePermissionsInput,
} from '@tessera/core/contracts/authorization';
import { P } from '@tessera/core/contracts/permissions';
import { requirePermission } from '../../platform/route-access.ts';
import './authorization.permissions.ts';
import { getDataScopes, updateDataScopes } from './data-scopes.service.ts';
import {
  createDefinition,
  createPagePermissions,
  deleteDefinition,
  getDefinition,
  listDefinitionGroups,
  listDefinitions,
  updateDefinition,
} from './permission-definitions.service.ts';
import { getPermissions, updatePermissions } from './permission-management.service.ts';

export async function authorizationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // ABP permission management: a role's, user's or unit's grants.
  app.get('/permission-management/permissions', {
    config: requirePermission(P.Permissions),
    schema: { summary: 'Permissions of a role (R), user (U) or organisation unit (OU), grouped', querystring: ZPermissionProviderQuery, response: { 200: ZPermissionListResult } },
    handler: (req) => getPermissions(req.ctx, req.query),
  });

  app.put('/permission-management/permissions', {
    config: requirePermission(P.PermissionsGrant),
    schema: { summary: 'Grant (isGranted true) or revoke permissions of a role, user or unit', querystring: ZPermissionProviderQuery, body: ZUpdatePermissionsInput, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await updatePermissions(req.ctx, req.query, req.body);
      return reply.status(204).send(null);
    },
  });

  // Permission definitions: system codes (read-only) and designer-defined Biz.* codes.
  app.get('/app/permission-definitions', {
    config: requirePermission(P.PermissionDefinitions),
    schema: { summary: 'Permission definitions, paged (Filter, GroupName, IsSystem)', querystring: ZPermissionDefinitionQuery, response: { 200: ZPermissionDefinitionList } },
    handler: (req) => listDefinitions(req.ctx, req.query),
  });

  app.get('/app/permission-definitions/groups', {
    config: requirePermission(P.PermissionDefinitions),
    schema: { summary: 'Permission groups with their number of codes', response: { 200: ZPermissionDefinitionGroupList } },
    handler: (req) => listDefinitionGroups(req.ctx),
  });

  app.get('/app/permission-definitions/:name', {
    config: requirePermission(P.PermissionDefinitions),
    schema: { summary: 'One permission definition', params: ZPermissionNameParam, response: { 200: ZPermissionDefinition } },
    handler: (req) => getDefinition(req.ctx, req.params.name),
  });

  app.post('/app/permission-definitions', {
    config: requirePermission(P.PermissionDefinitionsManage),
    schema: { summary: 'Create a designer-defined code (Biz.…)', body: ZCreatePermissionDefinitionInput, response: { 200: ZPermissionDefinition } },
    handler: (req) => createDefinition(req.ctx, req.body),
  });

  app.post('/app/permission-definitions/page-permissions', {
    config: requirePermission(P.PermissionDefinitionsManage),
    schema: { summary: "A business page's codes: access, buttons, field view/edit", body: ZPagePermissionsInput, response: { 200: ZPagePermissionsResult } },
    handler: (req) => createPagePermissions(req.ctx, req.body),
  });

  app.put('/app/permission-definitions/:name', {
    config: requirePermission(P.PermissionDefinitionsManage),
    schema: { summary: 'Rename or re-parent a designer-defined code', params: ZPermissionNameParam, body: ZUpdatePermissionDefinitionInput, response: { 200: ZPermissionDefinition } },
    handler: (req) => updateDefinition(req.ctx, req.params.name, req.body),
  });

  app.delete('/app/permission-definitions/:name', {
    config: requirePermission(P.PermissionDefinitionsManage),
    schema: { summary: 'Delete a designer-defined code, its children and their grants', params: ZPermissionNameParam, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await deleteDefinition(req.ctx, req.params.name);
      return reply.status(204).send(null);
    },
  });

  // Data scopes per role and business page (enforced by the business-data module).
  app.get('/app/data-scopes', {
    config: requirePermission(P.Permissions),
    schema: { summary: "A role's data scopes per business page", querystring: ZDataScopeQuery, response: { 200: ZDataScopeList } },
    handler: (req) => getDataScopes(req.ctx, req.query.roleId),
  });

  app.put('/app/data-scopes', {
    config: requirePermission(P.DataScopesManage),
    schema: { summary: "Replace a role's data scopes", querystring: ZDataScopeQuery, body: ZUpdateDataScopesInput, response: { 200: ZDataScopeList } },
    handler: (req) => updateDataScopes(req.ctx, req.query.roleId, req.body),
  });
}
