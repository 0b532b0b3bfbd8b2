import { P } from '@tessera/core/contracts/permissions';
import { definePermissionGroup } from '../../platform/permission-registry.ts';

definePermissionGroup('Tessera.Dictionaries', { 'zh-CN': '业务字典', 'en-US': 'Business dictionaries' }, [
  { name: P.Dictionaries, displayName: { 'zh-CN': '管理业务字典', 'en-US': 'Manage business dictionaries' } },
  { name: P.DictionariesCreate, parentName: P.Dictionaries, displayName: { 'zh-CN': '新建字典', 'en-US': 'Create dictionaries' } },
  { name: P.DictionariesUpdate, parentName: P.Dictionaries, displayName: { 'zh-CN': '编辑字典与导入', 'en-US': 'Edit and import dictionaries' } },
  { name: P.DictionariesDelete, parentName: P.Dictionaries, displayName: { 'zh-CN': '删除字典', 'en-US': 'Delete dictionaries' } },
]);
