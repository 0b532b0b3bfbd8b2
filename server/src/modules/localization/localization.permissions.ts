import { P } from '@tessera/core/contracts/permissions';
import { definePermissionGroup } from '../../platform/permission-registry.ts';

definePermissionGroup('Tessera.Localization', { 'zh-CN': '语言管理', 'en-US': 'Languages' }, [
  { name: P.Localization, displayName: { 'zh-CN': '查看语言包与翻译', 'en-US': 'View language packs and translations' } },
  {
    name: P.LocalizationManage,
    parentName: P.Localization,
    displayName: { 'zh-CN': '管理语言包、翻译与导入', 'en-US': 'Manage language packs, translations and imports' },
  },
]);
