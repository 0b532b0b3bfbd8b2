import type { FastifyInstance } from 'fastify';
import './identity.permissions.ts';
import { organizationUnitRoutes } from './organization-units.routes.ts';
import { roleRoutes } from './roles.routes.ts';
import { userRoutes } from './users.routes.ts';

/** Organisation units, users and roles (the pickers' selection items are business data's). */
export async function identityRoutes(fastify: FastifyInstance) {
  await fastify.register(organizationUnitRoutes);
  await fastify.register(userRoutes);
  await fastify.register(roleRoutes);
}
