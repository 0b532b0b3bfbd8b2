import { P } from '@tessera/core/contracts/permissions';
import { definePermissionGroup } from '../../platform/permission-registry.ts';

definePermissionGroup('Identity', { 'zh-CN': '组织与用户', 'en-US': 'Organisation and users' }, [
  { name: P.OrganizationUnits, displayName: { 'zh-CN': '组织机构管理', 'en-US': 'Organisation units' } },
  { name: P.OrganizationUnitsCreate, parentName: P.OrganizationUnits, displayName: { 'zh-CN': '新建组织机构', 'en-US': 'Create units' } },
  { name: P.OrganizationUnitsUpdate, parentName: P.OrganizationUnits, displayName: { 'zh-CN': '修改与移动组织机构', 'en-US': 'Rename and move units' } },
  { name: P.OrganizationUnitsDelete, parentName: P.OrganizationUnits, displayName: { 'zh-CN': '删除组织机构', 'en-US': 'Delete units' } },
  {
    name: P.OrganizationUnitsManageMembers,
    parentName: P.OrganizationUnits,
    displayName: { 'zh-CN': '管理成员与负责人', 'en-US': 'Manage members and leaders' },
  },
  { name: P.Users, displayName: { 'zh-CN': '用户管理', 'en-US': 'Users' } },
  { name: P.UsersCreate, parentName: P.Users, displayName: { 'zh-CN': '新建用户', 'en-US': 'Create users' } },
  { name: P.UsersUpdate, parentName: P.Users, displayName: { 'zh-CN': '修改用户', 'en-US': 'Edit users' } },
  { name: P.UsersDelete, parentName: P.Users, displayName: { 'zh-CN': '删除用户', 'en-US': 'Delete users' } },
  { name: P.UsersLock, parentName: P.Users, displayName: { 'zh-CN': '锁定与解锁用户', 'en-US': 'Lock and unlock users' } },
  { name: P.UsersResetPassword, parentName: P.Users, displayName: { 'zh-CN': '重置密码', 'en-US': 'Reset passwords' } },
  { name: P.UsersRevokeSessions, parentName: P.Users, displayName: { 'zh-CN': '强制下线', 'en-US': 'Revoke sessions' } },
  { name: P.UsersImport, parentName: P.Users, displayName: { 'zh-CN': '导入用户', 'en-US': 'Import users' } },
  { name: P.UsersExport, parentName: P.Users, displayName: { 'zh-CN': '导出用户', 'en-US': 'Export users' } },
  { name: P.Roles, displayName: { 'zh-CN': '角色管理', 'en-US': 'Roles' } },
  { name: P.RolesCreate, parentName: P.Roles, displayName: { 'zh-CN': '新建角色', 'en-US': 'Create roles' } },
  { name: P.RolesUpdate, parentName: P.Roles, displayName: { 'zh-CN': '修改角色与成员', 'en-US': 'Edit roles and members' } },
  { name: P.RolesDelete, parentName: P.Roles, displayName: { 'zh-CN': '删除角色', 'en-US': 'Delete roles' } },
]);
