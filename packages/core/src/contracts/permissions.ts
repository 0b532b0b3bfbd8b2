/**
 * The system's permission codes, in one place so the server guards, the menus and the web `Auth`
 * checks spell them the same. Each server module registers display names for its own codes
 * (`definePermissionGroup`). Designer-defined codes for business pages are `Biz.<page>.<action>`.
 */
export const P = {
  OrganizationUnits: 'Identity.OrganizationUnits',
  OrganizationUnitsCreate: 'Identity.OrganizationUnits.Create',
  OrganizationUnitsUpdate: 'Identity.OrganizationUnits.Update',
  OrganizationUnitsDelete: 'Identity.OrganizationUnits.Delete',
  OrganizationUnitsManageMembers: 'Identity.OrganizationUnits.ManageMembers',
  Users: 'Identity.Users',
  UsersCreate: 'Identity.Users.Create',
  UsersUpdate: 'Identity.Users.Update',
  UsersDelete: 'Identity.Users.Delete',
  UsersLock: 'Identity.Users.Lock',
  UsersResetPassword: 'Identity.Users.ResetPassword',
  UsersImport: 'Identity.Users.Import',
  UsersExport: 'Identity.Users.Export',
  Roles: 'Identity.Roles',
  RolesCreate: 'Identity.Roles.Create',
  RolesUpdate: 'Identity.Roles.Update',
  RolesDelete: 'Identity.Roles.Delete',
  Permissions: 'Tessera.Permissions',
  PermissionsGrant: 'Tessera.Permissions.Grant',
  PermissionDefinitions: 'Tessera.PermissionDefinitions',
  PermissionDefinitionsManage: 'Tessera.PermissionDefinitions.Manage',
  DataScopesManage: 'Tessera.DataScopes.Manage',
  Menus: 'Tessera.Menus',
  MenusCreate: 'Tessera.Menus.Create',
  MenusUpdate: 'Tessera.Menus.Update',
  MenusDelete: 'Tessera.Menus.Delete',
  Localization: 'Tessera.Localization',
  LocalizationManage: 'Tessera.Localization.Manage',
  HelpManage: 'Tessera.Help.Manage',
  AuditLogs: 'Tessera.AuditLogs',
  Settings: 'Tessera.Settings',
  SettingsManage: 'Tessera.Settings.Manage',
  Dictionaries: 'Tessera.Dictionaries',
  DictionariesCreate: 'Tessera.Dictionaries.Create',
  DictionariesUpdate: 'Tessera.Dictionaries.Update',
  DictionariesDelete: 'Tessera.Dictionaries.Delete',
  DocumentNumbers: 'Tessera.DocumentNumbers',
  DocumentNumbersCreate: 'Tessera.DocumentNumbers.Create',
  DocumentNumbersUpdate: 'Tessera.DocumentNumbers.Update',
  DocumentNumbersDelete: 'Tessera.DocumentNumbers.Delete',
  DocumentNumbersIssue: 'Tessera.DocumentNumbers.Issue',
  Pages: 'Tessera.Pages',
  PagesCreate: 'Tessera.Pages.Create',
  PagesUpdate: 'Tessera.Pages.Update',
  PagesDelete: 'Tessera.Pages.Delete',
  PagesPublish: 'Tessera.Pages.Publish',
  AuditLogsExport: 'Tessera.AuditLogs.Export',
  ApiKeys: 'Tessera.ApiKeys',
  ApiKeysRevoke: 'Tessera.ApiKeys.Revoke',
  UsersRevokeSessions: 'Identity.Users.RevokeSessions',
  // Area codes of the system menus (spec §2) whose modules are still to come; the menus module
  // registers their display names until the module that builds the area takes them over.
  PrintTemplates: 'Tessera.PrintTemplates',
  Workflows: 'Tessera.Workflows',
  DataTransmissions: 'Tessera.DataTransmissions',
  Charts: 'Tessera.Charts',
  ScanCode: 'Tessera.ScanCode',
  DataSources: 'Tessera.DataSources',
  DataFactory: 'Tessera.DataFactory',
  DataFactoryRun: 'Tessera.DataFactory.Run',
  FlowInstances: 'Tessera.FlowInstances',
  NotificationsSend: 'Tessera.Notifications.Send',
} as const;

export type PermissionCode = (typeof P)[keyof typeof P];

/**
 * The code that lets a user run one data factory procedure (besides DataFactoryRun): its id without
 * hyphens, so it survives a renamed code; created and removed with the procedure.
 */
export const factoryProcedurePermission = (procedureId: string) => `Tessera.DataFactory.Procedures.${procedureId.replace(/-/g, '')}`;

/** The everyday actions on a business page's records; buttons of these types carry them out. */
export const BIZ_ACTIONS = ['add', 'edit', 'delete', 'import', 'export'] as const;
export type BizAction = (typeof BIZ_ACTIONS)[number];
const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Designer-defined codes for a business page. */
export const bizPermission = {
  access: (pageCode: string) => `Biz.${pageCode}.Access`,
  /**
   * The page's default code for an action (`Biz.<page>.Action.Add`): it governs the action while
   * the design has no coded button of that type; coded buttons' own codes govern otherwise.
   */
  action: (pageCode: string, action: BizAction) => `Biz.${pageCode}.Action.${capitalized(action)}`,
  button: (pageCode: string, buttonCode: string) => `Biz.${pageCode}.${buttonCode}`,
  fieldView: (pageCode: string, controlCode: string) => `Biz.${pageCode}.Field.${controlCode}.View`,
  fieldEdit: (pageCode: string, controlCode: string) => `Biz.${pageCode}.Field.${controlCode}.Edit`,
  /** A business menu's code: its id without hyphens, so codes stay letters, digits and dots. */
  menu: (menuId: string) => `Biz.Menu.${menuId.replace(/-/g, '')}`,
};
