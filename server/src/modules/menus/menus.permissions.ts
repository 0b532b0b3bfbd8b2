import { P } from '@tessera/core/contracts/permissions';
import { definePermissionGroup } from '../../platform/permission-registry.ts';

/**
 * The area codes of system menus whose modules are still to come (spec §2: design, data settings).
 * Each group uses the name its module will use, so when that module registers its own codes (with
 * these as parents) the definitions agree. Workflows (`Tessera.Workflows`), print templates (`Tessera.PrintTemplates`) and the data factory (`Tessera.DataFactory`) moved to their modules.
 */
definePermissionGroup('Tessera.DataTransmissions', { 'zh-CN': '数据传输', 'en-US': 'Data transmission' }, [
  { name: P.DataTransmissions, displayName: { 'zh-CN': '数据传输设计', 'en-US': 'Design data transmission' } },
]);
definePermissionGroup('Tessera.Charts', { 'zh-CN': '图表', 'en-US': 'Charts' }, [
  { name: P.Charts, displayName: { 'zh-CN': '图表设计', 'en-US': 'Design charts' } },
]);
definePermissionGroup('Tessera.ScanCode', { 'zh-CN': '扫码业务', 'en-US': 'Scan-code business' }, [
  { name: P.ScanCode, displayName: { 'zh-CN': '扫码业务设计', 'en-US': 'Design scan-code business' } },
]);
definePermissionGroup('Tessera.DataSources', { 'zh-CN': '数据源', 'en-US': 'Data sources' }, [
  { name: P.DataSources, displayName: { 'zh-CN': '数据源管理', 'en-US': 'Manage data sources' } },
]);
