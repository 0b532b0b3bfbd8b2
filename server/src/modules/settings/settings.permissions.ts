import { P } from '@tessera/core/contracts/permissions';
import { definePermissionGroup } from '../../platform/permission-registry.ts';

definePermissionGroup('Tessera.Settings', { 'zh-CN': '系统设置', 'en-US': 'System settings' }, [
  { name: P.Settings, displayName: { 'zh-CN': '查看系统设置', 'en-US': 'View the system settings' } },
  { name: P.SettingsManage, parentName: P.Settings, displayName: { 'zh-CN': '修改系统设置', 'en-US': 'Change the system settings' } },
]);
