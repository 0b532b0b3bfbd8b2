import { P } from '@tessera/core/contracts/permissions';
import { definePermissionGroup } from '../../platform/permission-registry.ts';

definePermissionGroup('Tessera.Notifications', { 'zh-CN': '通知', 'en-US': 'Notifications' }, [
  { name: P.NotificationsSend, displayName: { 'zh-CN': '发送通知公告', 'en-US': 'Send notices and messages' } },
]);
