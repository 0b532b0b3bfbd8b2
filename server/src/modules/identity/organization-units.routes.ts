import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParam } from '@tessera/core/contracts/common';
import {
  ZAddMembersInput,
  ZCreateOrganizationUnitInput,
  ZDeleteOrganizationUnitQuery,
  ZOrganizationUnit,
  ZOrganizationUnitList,
  ZOrganizationUnitMemberList,
  ZOrganizationUnitMembersQuery,
  ZOrganizationUnitNode,
  ZOrganizationUnitQuery,
  ZSetLeaderInput,
  ZUnitMemberParams,
  ZUpdateOrganizationUnitInput,
} from '@tessera/core/contracts/identity';
import { P } from '@tessera/core/contracts/permissions';
import { requirePermission } from '../../platform/route-access.ts';
import {
  addOrganizationUnitMembers,
  createOrganizationUnit,
  deleteOrganizationUnit,
  getOrganizationUnit,
  listOrganizationUnitMembers,
  listOrganizationUnits,
  organizationUnitTree,
  removeOrganizationUnitMember,
  setOrganizationUnitLeader,
  updateOrganizationUnit,
} from './organization-units.service.ts';

export async function organizationUnitRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = '/identity/organization-units';

  app.get(base, {
    config: requirePermission(P.OrganizationUnits),
    schema: { summary: 'Organisation units, paged (Filter on the name, ParentId)', querystring: ZOrganizationUnitQuery, response: { 200: ZOrganizationUnitList } },
    handler: (req) => listOrganizationUnits(req.ctx, req.query),
  });

  app.get(`${base}/tree`, {
    config: requirePermission(P.OrganizationUnits),
    schema: { summary: 'Every unit as a tree ordered by code', response: { 200: z.array(ZOrganizationUnitNode) } },
    handler: (req) => organizationUnitTree(req.ctx),
  });

  app.post(base, {
    config: requirePermission(P.OrganizationUnitsCreate),
    schema: { summary: 'Create a unit under a parent (none: top level)', body: ZCreateOrganizationUnitInput, response: { 200: ZOrganizationUnit } },
    handler: (req) => createOrganizationUnit(req.ctx, req.body),
  });

  app.get(`${base}/:id`, {
    config: requirePermission(P.OrganizationUnits),
    schema: { summary: 'One unit', params: ZIdParam, response: { 200: ZOrganizationUnit } },
    handler: (req) => getOrganizationUnit(req.ctx, req.params.id),
  });

  app.put(`${base}/:id`, {
    config: requirePermission(P.OrganizationUnitsUpdate),
    schema: {
      summary: 'Rename, or move under another parent (the subtree moves with it)',
      params: ZIdParam,
      body: ZUpdateOrganizationUnitInput,
      response: { 200: ZOrganizationUnit },
    },
    handler: (req) => updateOrganizationUnit(req.ctx, req.params.id, req.body),
  });

  app.delete(`${base}/:id`, {
    config: requirePermission(P.OrganizationUnitsDelete),
    schema: {
      summary: 'Delete an empty unit; with cascade=true the units below are deleted and members detached',
      params: ZIdParam,
      querystring: ZDeleteOrganizationUnitQuery,
      response: { 204: z.null() },
    },
    handler: async (req, reply) => {
      await deleteOrganizationUnit(req.ctx, req.params.id, req.query.cascade);
      return reply.status(204).send(null);
    },
  });

  app.get(`${base}/:id/members`, {
    config: requirePermission(P.OrganizationUnits),
    schema: { summary: 'Members of a unit, paged', params: ZIdParam, querystring: ZOrganizationUnitMembersQuery, response: { 200: ZOrganizationUnitMemberList } },
    handler: (req) => listOrganizationUnitMembers(req.ctx, req.params.id, req.query),
  });

  app.post(`${base}/:id/members`, {
    config: requirePermission(P.OrganizationUnitsManageMembers),
    schema: { summary: 'Add users to a unit', params: ZIdParam, body: ZAddMembersInput, response: { 200: z.object({ addedCount: z.number().int() }) } },
    handler: (req) => addOrganizationUnitMembers(req.ctx, req.params.id, req.body),
  });

  app.put(`${base}/:id/members/leader`, {
    config: requirePermission(P.OrganizationUnitsManageMembers),
    schema: { operationId: 'setOrganizationUnitLeader', summary: "Set the unit's leader (a member) or clear it", params: ZIdParam, body: ZSetLeaderInput, response: { 200: ZOrganizationUnit } },
    handler: (req) => setOrganizationUnitLeader(req.ctx, req.params.id, req.body),
  });

  app.delete(`${base}/:id/members/:userId`, {
    config: requirePermission(P.OrganizationUnitsManageMembers),
    schema: { summary: 'Remove a user from a unit', params: ZUnitMemberParams, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await removeOrganizationUnitMember(req.ctx, req.params.id, req.params.userId);
      return reply.status(204).send(null);
    },
  });
}
