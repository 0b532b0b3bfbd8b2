import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParam, ZPagedQuery } from '@tessera/core/contracts/common';
import {
  ZAddMembersInput,
  ZCreateRoleInput,
  ZIdentityRole,
  ZRoleList,
  ZRoleMemberList,
  ZRoleQuery,
  ZUnitMemberParams,
  ZUpdateRoleInput,
} from '@tessera/core/contracts/identity';
import { P } from '@tessera/core/contracts/permissions';
import { requirePermission } from '../../platform/route-access.ts';
import { addRoleMembers, createRole, deleteRole, getRole, listRoleMembers, listRoles, removeRoleMember, updateRole } from './roles.service.ts';

export async function roleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = '/identity/roles';

  app.get(base, {
    config: requirePermission(P.Roles),
    schema: { summary: 'Roles, paged (Filter on name and description)', querystring: ZRoleQuery, response: { 200: ZRoleList } },
    handler: (req) => listRoles(req.ctx, req.query),
  });

  app.post(base, {
    config: requirePermission(P.RolesCreate),
    schema: { summary: 'Create a role', body: ZCreateRoleInput, response: { 200: ZIdentityRole } },
    handler: (req) => createRole(req.ctx, req.body),
  });

  app.get(`${base}/:id`, {
    config: requirePermission(P.Roles),
    schema: { summary: 'One role', params: ZIdParam, response: { 200: ZIdentityRole } },
    handler: (req) => getRole(req.ctx, req.params.id),
  });

  app.put(`${base}/:id`, {
    config: requirePermission(P.RolesUpdate),
    schema: { summary: 'Update a role (static roles keep their name); 409 on a stale concurrencyStamp', params: ZIdParam, body: ZUpdateRoleInput, response: { 200: ZIdentityRole } },
    handler: (req) => updateRole(req.ctx, req.params.id, req.body),
  });

  app.delete(`${base}/:id`, {
    config: requirePermission(P.RolesDelete),
    schema: { summary: 'Delete a role that is not static', params: ZIdParam, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await deleteRole(req.ctx, req.params.id);
      return reply.status(204).send(null);
    },
  });

  app.get(`${base}/:id/members`, {
    config: requirePermission(P.Roles),
    schema: { summary: 'Users in a role, paged', params: ZIdParam, querystring: ZPagedQuery, response: { 200: ZRoleMemberList } },
    handler: (req) => listRoleMembers(req.ctx, req.params.id, req.query),
  });

  app.post(`${base}/:id/members`, {
    config: requirePermission(P.RolesUpdate),
    schema: { summary: 'Add users to a role', params: ZIdParam, body: ZAddMembersInput, response: { 200: z.object({ addedCount: z.number().int() }) } },
    handler: (req) => addRoleMembers(req.ctx, req.params.id, req.body),
  });

  app.delete(`${base}/:id/members/:userId`, {
    config: requirePermission(P.RolesUpdate),
    schema: { summary: 'Remove a user from a role', params: ZUnitMemberParams, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await removeRoleMember(req.ctx, req.params.id, req.params.userId);
      return reply.status(204).send(null);
    },
  });
}
