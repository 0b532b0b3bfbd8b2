import { describe, expect, it } from 'vitest';
import { deriveOperationId } from './openapi-operation-id.ts';

const collections = new Set(['/api/app/page-definition']);
const isCollection = (path: string) => collections.has(path);

describe('deriveOperationId', () => {
  it.each([
    ['get', '/api/identity/users', 'listUsers'],
    ['post', '/api/identity/users', 'createUser'],
    ['get', '/api/identity/users/{id}', 'getUser'],
    ['put', '/api/identity/users/{id}', 'updateUser'],
    ['delete', '/api/identity/users/{id}', 'deleteUser'],
    ['post', '/api/identity/users/{id}/lock', 'lockUser'],
    ['post', '/api/identity/users/{id}/reset-password', 'resetUserPassword'],
    ['get', '/api/identity/users/export', 'exportUsers'],
    ['get', '/api/identity/users/import-template', 'getUserImportTemplate'],
    ['get', '/api/identity/roles/{id}/members', 'listRoleMembers'],
    ['post', '/api/identity/roles/{id}/members', 'addRoleMembers'],
    ['delete', '/api/identity/roles/{id}/members/{userId}', 'deleteRoleMember'],
    ['get', '/api/app/page-definition', 'listPageDefinitions'],
    ['post', '/api/app/page-definition/{id}/publish', 'publishPageDefinition'],
    ['get', '/api/app/page-definition/{id}/versions/{version}', 'getPageDefinitionVersion'],
    ['post', '/api/app/page-definition/{id}/rollback/{version}', 'rollbackPageDefinition'],
    ['post', '/api/app/business-data/save-page', 'savePage'],
    ['get', '/api/app/sys-function/system-date', 'getSystemDate'],
    ['get', '/api/app/business-menu/all', 'listAllBusinessMenus'],
    ['get', '/api/app/help-documents/by-key/{key}', 'getHelpDocumentByKey'],
    ['get', '/api/app/qr-code/qr-code', 'getQrCode'],
  ])('%s %s → %s', (method, path, id) => {
    expect(deriveOperationId(method, path, isCollection)).toBe(id);
  });
});
