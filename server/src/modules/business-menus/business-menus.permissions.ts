import { P } from '@tessera/core/contracts/permissions';
import { definePermissionGroup } from '../../platform/permission-registry.ts';

definePermissionGroup('Tessera.Menus', { 'zh-CN': '菜单管理', 'en-US': 'Menus' }, [
  { name: P.Menus, displayName: { 'zh-CN': '管理业务菜单', 'en-US': 'Manage business menus' } },
  { name: P.MenusCreate, parentName: P.Menus, displayName: { 'zh-CN': '新建菜单', 'en-US': 'Create menus' } },
  { name: P.MenusUpdate, parentName: P.Menus, displayName: { 'zh-CN': '编辑与移动菜单', 'en-US': 'Edit and move menus' } },
  { name: P.MenusDelete, parentName: P.Menus, displayName: { 'zh-CN': '删除菜单', 'en-US': 'Delete menus' } },
]);
