import { P } from '@tessera/core/contracts/permissions';
import { definePermissionGroup } from '../../platform/permission-registry.ts';

// Designing definitions (this module's routes) and managing running instances (the engine's,
// issue 13's next slice) belong to one group; menus listed it as a placeholder until now.
definePermissionGroup('Tessera.Workflows', { 'zh-CN': '工作流', 'en-US': 'Workflows' }, [
  { name: P.Workflows, displayName: { 'zh-CN': '工作流设计', 'en-US': 'Design workflows' } },
  { name: P.FlowInstances, displayName: { 'zh-CN': '流程管理', 'en-US': 'Manage flow instances' } },
]);
