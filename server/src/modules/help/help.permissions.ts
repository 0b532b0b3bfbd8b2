import { P } from '@tessera/core/contracts/permissions';
import { definePermissionGroup } from '../../platform/permission-registry.ts';

// Reading help needs no code (any signed-in user); writing it does.
definePermissionGroup('Tessera.Help', { 'zh-CN': '帮助文档', 'en-US': 'Help documents' }, [
  { name: P.HelpManage, displayName: { 'zh-CN': '编辑帮助文档与图片', 'en-US': 'Edit help documents and images' } },
]);
