import { P } from '@tessera/core/contracts/permissions';
import { definePermissionGroup } from '../../platform/permission-registry.ts';

// Data sources: define, browse and query external databases (every route of this module).
definePermissionGroup('Tessera.DataSources', { 'zh-CN': '数据源', 'en-US': 'Data sources' }, [
  { name: P.DataSources, displayName: { 'zh-CN': '数据源管理', 'en-US': 'Manage data sources' } },
]);
