import { P } from '@tessera/core/contracts/permissions';
import { definePermissionGroup } from '../../platform/permission-registry.ts';

definePermissionGroup('Tessera.DocumentNumbers', { 'zh-CN': '单据编号', 'en-US': 'Document numbers' }, [
  { name: P.DocumentNumbers, displayName: { 'zh-CN': '管理单据编号规则', 'en-US': 'Manage document-number rules' } },
  { name: P.DocumentNumbersCreate, parentName: P.DocumentNumbers, displayName: { 'zh-CN': '新建编号规则', 'en-US': 'Create rules' } },
  { name: P.DocumentNumbersUpdate, parentName: P.DocumentNumbers, displayName: { 'zh-CN': '编辑编号规则', 'en-US': 'Edit rules' } },
  { name: P.DocumentNumbersDelete, parentName: P.DocumentNumbers, displayName: { 'zh-CN': '删除编号规则', 'en-US': 'Delete rules' } },
  { name: P.DocumentNumbersIssue, displayName: { 'zh-CN': '获取单据编号', 'en-US': 'Fetch document numbers' } },
]);
