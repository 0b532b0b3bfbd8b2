import { P } from '@tessera/core/contracts/permissions';
import { definePermissionGroup } from '../../platform/permission-registry.ts';

definePermissionGroup('Tessera.Authorization', { 'zh-CN': '权限管理', 'en-US': 'Authorization' }, [
  { name: P.Permissions, displayName: { 'zh-CN': '查看授权', 'en-US': 'View authorizations' } },
  { name: P.PermissionsGrant, parentName: P.Permissions, displayName: { 'zh-CN': '授予与撤销权限', 'en-US': 'Grant and revoke permissions' } },
  { name: P.DataScopesManage, parentName: P.Permissions, displayName: { 'zh-CN': '设置数据权限', 'en-US': 'Set data scopes' } },
  { name: P.PermissionDefinitions, displayName: { 'zh-CN': '权限定义', 'en-US': 'Permission definitions' } },
  {
    name: P.PermissionDefinitionsManage,
    parentName: P.PermissionDefinitions,
    displayName: { 'zh-CN': '维护业务权限定义', 'en-US': 'Manage business permission definitions' },
  },
]);
