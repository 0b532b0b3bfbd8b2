import { P } from '@tessera/core/contracts/permissions';
import { definePermissionGroup } from '../../platform/permission-registry.ts';

definePermissionGroup('Tessera.Pages', { 'zh-CN': '页面设计', 'en-US': 'Page design' }, [
  { name: P.Pages, displayName: { 'zh-CN': '查看页面定义', 'en-US': 'View page definitions' } },
  { name: P.PagesCreate, parentName: P.Pages, displayName: { 'zh-CN': '新建、复制与导入页面', 'en-US': 'Create, copy and import pages' } },
  { name: P.PagesUpdate, parentName: P.Pages, displayName: { 'zh-CN': '设计与重命名页面', 'en-US': 'Design and rename pages' } },
  { name: P.PagesDelete, parentName: P.Pages, displayName: { 'zh-CN': '删除页面', 'en-US': 'Delete pages' } },
  { name: P.PagesPublish, parentName: P.Pages, displayName: { 'zh-CN': '发布与回滚页面', 'en-US': 'Publish and roll back pages' } },
]);
