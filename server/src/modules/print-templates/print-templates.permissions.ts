import { P } from '@tessera/core/contracts/permissions';
import { definePermissionGroup } from '../../platform/permission-registry.ts';

// Designing print templates (this module's designer routes). Printing needs the page's read right
// and, where a template names one, its own permission code.
definePermissionGroup('Tessera.PrintTemplates', { 'zh-CN': '打印模板', 'en-US': 'Print templates' }, [
  { name: P.PrintTemplates, displayName: { 'zh-CN': '打印模板设计', 'en-US': 'Design print templates' } },
]);
