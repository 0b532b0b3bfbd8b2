import { lazy, type ComponentType } from 'react';
import { P } from '@tessera/core/contracts/permissions';
import { registerListExtra, registerRecordEditGrant, registerRecordExtra } from '../shared/components/record-extras.ts';
import { registerRecordView } from '../shared/components/record-view.ts';
import { useApproverGrant } from '../modules/workflow/runtime/use-approver-grant.ts';
import { lazyWithTimeout, type PreloadableLazy } from './routes/lazy-page.ts';

/**
 * Pages that business modules contribute to the shell's routes, by route path (spec §2 table).
 * Each module adds its own lines here; the router wraps them in the layout, lazy chunks and the
 * access check. A path not listed shows the module's empty state.
 */
export interface ModulePage {
  component: PreloadableLazy<ComponentType>;
  /** Permission codes needed to open the page (the server enforces its APIs as well). */
  auth?: string[];
  /** Route name, for pages the spec names (`system-audit`). */
  name?: string;
  /** Title (an i18n key such as `menu:audit`) for a path the shell's route table does not list. */
  title?: string;
}

export const page = (load: () => Promise<{ default: ComponentType }>, auth?: string[]): ModulePage => ({
  // Each page is its own chunk; loading it gives up after 120 s (spec §8).
  component: lazyWithTimeout(load),
  auth,
});

export const modulePages: Record<string, ModulePage> = {
  '/builtIn/organization': page(() => import('../modules/identity/pages/OrganizationUnitsPage.tsx'), [P.OrganizationUnits]),
  '/builtIn/user': page(() => import('../modules/identity/pages/UsersPage.tsx'), [P.Users]),
  '/builtIn/role': page(() => import('../modules/identity/pages/RolesPage.tsx'), [P.Roles]),
  '/builtIn/authorization': page(() => import('../modules/authorization/pages/AuthorizationPage.tsx'), [P.Permissions]),
  '/design/authority': page(() => import('../modules/authorization/pages/PermissionDefinitionsPage.tsx'), [P.PermissionDefinitions]),
  '/builtIn/menu': page(() => import('../modules/business-menus/pages/BusinessMenusPage.tsx'), [P.Menus]),
  '/system/audit': { ...page(() => import('../modules/audit/pages/AuditLogsPage.tsx'), [P.AuditLogs]), name: 'system-audit' },
  '/system/settings': { ...page(() => import('../modules/settings/pages/SystemSettingsPage.tsx'), [P.Settings]), name: 'system-settings' },
  // Public: visitors register here when registration is open (spec §1).
  '/register': page(() => import('../modules/auth/pages/RegisterPage.tsx')),
  // The server checks the menu's and page's own codes (Biz.Menu.<id>, Biz.<page>.Access).
  '/menu/:menuId/params/:menuChildId': { ...page(() => import('../modules/business-data/pages/BusinessDataPage.tsx')), name: 'view-params' },
  '/system/localization': page(() => import('../modules/localization/pages/LocalizationPage.tsx'), [P.Localization]),
  // Readable by every signed-in user; writing needs Tessera.Help.Manage (checked on the page and the server).
  '/system/documentation': page(() => import('../modules/help/pages/HelpDocumentsPage.tsx')),
  // Data sources (issue 16): external databases, browsed and queried with named parameters.
  '/dataSet/source': page(() => import('../modules/data-sources/pages/DataSourcesPage.tsx'), [P.DataSources]),
  // The data factory (issue 16): PL/pgSQL functions in the product's database, versioned, test-run.
  '/dataSet/storedProcedure': page(() => import('../modules/data-factory/pages/DataFactoryPage.tsx'), [P.DataFactory]),
  '/dataSet/dictionary': page(() => import('../modules/dictionaries/pages/DictionariesPage.tsx'), [P.Dictionaries]),
  '/dataSet/documentNumber': page(() => import('../modules/document-numbers/pages/DocumentNumbersPage.tsx'), [P.DocumentNumbers]),
  '/design/form': page(() => import('../modules/pages/pages/PageDefinitionsPage.tsx'), [P.Pages]),
  '/pageDefinition': page(() => import('../modules/pages/designer/DesignerPage.tsx'), [P.Pages]),
  '/design/workflow': page(() => import('../modules/workflow/pages/WorkflowDefinitionsPage.tsx'), [P.Workflows]),
  '/flow': page(() => import('../modules/workflow/designer/FlowDesignerPage.tsx'), [P.Workflows]),
  // Print templates (issue 15): the list and the standalone sheet designer.
  '/design/sheetIndex': page(() => import('../modules/print-templates/pages/PrintTemplatesPage.tsx'), [P.PrintTemplates]),
  '/sheet': page(() => import('../modules/print-templates/designer/SheetDesignerPage.tsx'), [P.PrintTemplates]),
  // The task centre (issue 14): every signed-in user's own tasks; the server answers only the caller's.
  '/flows/assignTask': page(() => import('../modules/workflow/tasks/TodoTasksPage.tsx')),
  '/flows/completedTasks': page(() => import('../modules/workflow/tasks/CompletedTasksPage.tsx')),
  // Flow management (issue 14): every instance and the administrator's interventions.
  '/flows/instance': page(() => import('../modules/workflow/instances/InstancesPage.tsx'), [P.FlowInstances]),
  // Personal API keys (issue 29): every signed-in person's own; everyone's for administrators.
  '/account/apiKeys': { ...page(() => import('../modules/api-keys/pages/MyApiKeysPage.tsx')), name: 'account-apiKeys', title: 'menu:myApiKeys' },
  '/system/apiKeys': { ...page(() => import('../modules/api-keys/pages/AdminApiKeysPage.tsx'), [P.ApiKeys]), name: 'system-apiKeys', title: 'menu:apiKeys' },
};

// The workflow's approval bar on business records (a chunk of its own, loaded with a record page).
registerRecordExtra(lazy(() => import('../modules/workflow/runtime/RecordApproval.tsx')));
// …and what the holder of a pending approval task may change in the record's form (issue 13).
registerRecordEditGrant(useApproverGrant);
// Printing (issue 15): a record's print button and count, and printing a list's selected records.
registerRecordExtra(lazy(() => import('../modules/print-templates/runtime/PrintButton.tsx')));
registerListExtra(lazy(() => import('../modules/print-templates/runtime/ListPrint.tsx')));
// A record opened outside its menu page (the task centre's drawer): business-data's form.
registerRecordView(lazy(() => import('../modules/business-data/components/RecordView.tsx')));
