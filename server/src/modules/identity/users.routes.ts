import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParam } from '@tessera/core/contracts/common';
import {
  IMPORT_MAX_ROWS,
  ZAssignableRoleList,
  ZCreateUserInput,
  ZIdentityUser,
  ZImportUsersQuery,
  ZImportUsersResult,
  ZLockUserInput,
  ZResetPasswordInput,
  ZRevokeSessionsResult,
  ZUpdateUserInput,
  ZUserList,
  ZUserQuery,
} from '@tessera/core/contracts/identity';
import { P } from '@tessera/core/contracts/permissions';
import { requirePermission } from '../../platform/route-access.ts';
import { attachmentDisposition, XLSX_TYPE } from '../../platform/excel.ts';
import { acceptWorkbookUploads, workbookBytes, workbookUploadDescription } from '../../platform/excel-reader.ts';
import { exportUsers, importUsers, userImportTemplate } from './users-excel.service.ts';
import {
  assignableRoles,
  createUser,
  deleteUser,
  getUser,
  listUsers,
  lockUser,
  resetUserPassword,
  revokeUserSessions,
  unlockUser,
  updateUser,
} from './users.service.ts';

function sendWorkbook(reply: FastifyReply, fileName: string, content: Buffer) {
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', attachmentDisposition(fileName))
    .header('cache-control', 'no-store')
    .send(content);
}

export async function userRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = '/identity/users';
  // The import's body is the workbook's raw bytes (this plugin's scope only).
  acceptWorkbookUploads(fastify);

  app.get(base, {
    config: requirePermission(P.Users),
    schema: {
      summary: 'Users, paged: Filter (user name, name, surname, e-mail, phone), OrganizationUnitId (+IncludeChildUnits), RoleId/RoleName, IsActive',
      querystring: ZUserQuery,
      response: { 200: ZUserList },
    },
    handler: (req) => listUsers(req.ctx, req.query),
  });

  app.get(`${base}/assignable-roles`, {
    config: requirePermission(P.Users),
    schema: { summary: 'Roles a user form can assign', response: { 200: ZAssignableRoleList } },
    handler: (req) => assignableRoles(req.ctx),
  });

  app.get(`${base}/import-template`, {
    config: requirePermission(P.UsersImport),
    schema: { summary: 'The Excel template for importing users' },
    handler: async (req, reply) => sendWorkbook(reply, req.ctx.acceptLanguage.startsWith('en') ? 'user-import-template.xlsx' : '用户导入模板.xlsx', await userImportTemplate(req.ctx)),
  });

  app.post(`${base}/import`, {
    config: requirePermission(P.UsersImport),
    schema: {
      summary: 'Import users from the Excel template',
      description: workbookUploadDescription(IMPORT_MAX_ROWS, 'Any invalid row → 400 with row errors and nothing imported'),
      querystring: ZImportUsersQuery,
      response: { 200: ZImportUsersResult },
    },
    handler: (req) => importUsers(req.ctx, workbookBytes(req.ctx, req.body), req.query),
  });

  app.get(`${base}/export`, {
    config: requirePermission(P.UsersExport),
    schema: { summary: 'The users matching the list filters as an Excel workbook', querystring: ZUserQuery },
    handler: async (req, reply) => sendWorkbook(reply, `users-${new Date().toISOString().slice(0, 10)}.xlsx`, await exportUsers(req.ctx, req.query)),
  });

  app.post(base, {
    config: requirePermission(P.UsersCreate),
    schema: { summary: 'Create a user (roleNames omitted: the default roles)', body: ZCreateUserInput, response: { 200: ZIdentityUser } },
    handler: (req) => createUser(req.ctx, req.body),
  });

  app.get(`${base}/:id`, {
    config: requirePermission(P.Users),
    schema: { summary: 'One user', params: ZIdParam, response: { 200: ZIdentityUser } },
    handler: (req) => getUser(req.ctx, req.params.id),
  });

  app.put(`${base}/:id`, {
    config: requirePermission(P.UsersUpdate),
    schema: {
      summary: 'Update a user; concurrencyStamp must be the current one (409 otherwise)',
      params: ZIdParam,
      body: ZUpdateUserInput,
      response: { 200: ZIdentityUser },
    },
    handler: (req) => updateUser(req.ctx, req.params.id, req.body),
  });

  app.delete(`${base}/:id`, {
    config: requirePermission(P.UsersDelete),
    schema: { summary: 'Soft-delete a user and end their sessions', params: ZIdParam, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await deleteUser(req.ctx, req.params.id);
      return reply.status(204).send(null);
    },
  });

  app.post(`${base}/:id/lock`, {
    config: requirePermission(P.UsersLock),
    schema: { summary: 'Lock a user for some minutes or until a time', params: ZIdParam, body: ZLockUserInput, response: { 200: ZIdentityUser } },
    handler: (req) => lockUser(req.ctx, req.params.id, req.body),
  });

  app.post(`${base}/:id/unlock`, {
    config: requirePermission(P.UsersLock),
    schema: { summary: 'Unlock a user', params: ZIdParam, response: { 200: ZIdentityUser } },
    handler: (req) => unlockUser(req.ctx, req.params.id),
  });

  app.post(`${base}/:id/reset-password`, {
    config: requirePermission(P.UsersResetPassword),
    schema: { summary: "Set a user's password (policy applies); their sessions end", params: ZIdParam, body: ZResetPasswordInput, response: { 204: z.null() } },
    handler: async (req, reply) => {
      await resetUserPassword(req.ctx, req.params.id, req.body);
      return reply.status(204).send(null);
    },
  });

  app.post(`${base}/:id/revoke-sessions`, {
    config: requirePermission(P.UsersRevokeSessions),
    schema: { summary: 'Sign a user out everywhere', params: ZIdParam, response: { 200: ZRevokeSessionsResult } },
    handler: (req) => revokeUserSessions(req.ctx, req.params.id),
  });
}
