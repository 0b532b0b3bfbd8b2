import { P } from '@tessera/core/contracts/permissions';
import { definePermissionGroup } from '../../platform/permission-registry.ts';

// A user's own keys need no code (any signed-in person); seeing and revoking everyone's do.
definePermissionGroup('Tessera.ApiKeys', { 'zh-CN': 'API 密钥', 'en-US': 'API keys' }, [
  { name: P.ApiKeys, displayName: { 'zh-CN': '查看所有用户的 API 密钥', 'en-US': "View every user's API keys" } },
  { name: P.ApiKeysRevoke, parentName: P.ApiKeys, displayName: { 'zh-CN': '吊销任何用户的 API 密钥', 'en-US': "Revoke any user's API keys" } },
]);
