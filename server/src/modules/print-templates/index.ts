/*
 * Print templates (issue 15). Owns `print_templates`, `print_template_versions` and
 * `print_counts`. Uses pages (bound pages and their designs), business-data (records as the
 * caller may read them) and identity (names).
 */
import { registerPageUsage } from '../pages/index.ts';
import { printTemplatesUsingPage } from './print-templates.service.ts';

export { printTemplateRoutes } from './print-templates.routes.ts';

// A page a (not deleted) print template is bound to cannot be deleted.
registerPageUsage(printTemplatesUsingPage);
