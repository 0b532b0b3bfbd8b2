import type { TMenuItem, TMenuList } from '@tessera/core/contracts/menus';
import { P } from '@tessera/core/contracts/permissions';

/**
 * The fixed system areas of spec §2. Titles are i18n keys of the web's `menu` namespace; `auth`
 * lists the codes a user must hold (all of them) to see the item. A group without `auth` shows
 * when at least one of its children does.
 */
export const SYSTEM_HEADER: TMenuItem[] = [
  { path: '/', title: 'menu:home', header: true, icon: 'HomeOutlined' },
  // spec §2: the system entry opens the front-end log and hides the sider.
  { path: '/log', title: 'menu:system', header: true, icon: 'SettingOutlined', mainShow: false },
];

export const SYSTEM_SIDER: TMenuItem[] = [
  {
    path: '/dashboard',
    title: 'menu:dashboard',
    icon: 'DashboardOutlined',
    children: [{ path: '/dashboard/console', title: 'menu:console', icon: 'HomeOutlined' }],
  },
  {
    path: '/design',
    title: 'menu:design',
    icon: 'BuildOutlined',
    children: [
      { path: '/design/form', title: 'menu:form', icon: 'FormOutlined', auth: [P.Pages] },
      { path: '/design/sheetIndex', title: 'menu:sheetIndex', icon: 'PrinterOutlined', auth: [P.PrintTemplates] },
      { path: '/design/workflow', title: 'menu:workflow', icon: 'ApartmentOutlined', auth: [P.Workflows] },
      { path: '/design/authority', title: 'menu:authority', icon: 'SafetyCertificateOutlined', auth: [P.PermissionDefinitions] },
      { path: '/design/dataTransmission', title: 'menu:dataTransmission', icon: 'SwapOutlined', auth: [P.DataTransmissions] },
      { path: '/design/chartList', title: 'menu:chartList', icon: 'BarChartOutlined', auth: [P.Charts] },
      { path: '/design/scanCode', title: 'menu:scanCode', icon: 'ScanOutlined', auth: [P.ScanCode] },
    ],
  },
  {
    path: '/builtIn',
    title: 'menu:builtIn',
    icon: 'ClusterOutlined',
    children: [
      { path: '/builtIn/organization', title: 'menu:organization', icon: 'ApartmentOutlined', auth: [P.OrganizationUnits] },
      { path: '/builtIn/user', title: 'menu:user', icon: 'UserOutlined', auth: [P.Users] },
      { path: '/builtIn/role', title: 'menu:role', icon: 'TeamOutlined', auth: [P.Roles] },
      { path: '/builtIn/menu', title: 'menu:menu', icon: 'MenuOutlined', auth: [P.Menus] },
      { path: '/builtIn/authorization', title: 'menu:authorization', icon: 'KeyOutlined', auth: [P.Permissions] },
    ],
  },
  {
    path: '/dataSet',
    title: 'menu:dataSet',
    icon: 'DatabaseOutlined',
    children: [
      { path: '/dataSet/source', title: 'menu:source', icon: 'CloudServerOutlined', auth: [P.DataSources] },
      { path: '/dataSet/storedProcedure', title: 'menu:storedProcedure', icon: 'CodeOutlined', auth: [P.DataFactory] },
      { path: '/dataSet/documentNumber', title: 'menu:documentNumber', icon: 'NumberOutlined', auth: [P.DocumentNumbers] },
      { path: '/dataSet/dictionary', title: 'menu:dictionary', icon: 'BookOutlined', auth: [P.Dictionaries] },
    ],
  },
  {
    path: '/system',
    title: 'menu:systemArea',
    icon: 'ToolOutlined',
    children: [
      { path: '/system/localization', title: 'menu:localization', icon: 'GlobalOutlined', auth: [P.Localization] },
      { path: '/system/documentation', title: 'menu:documentation', icon: 'QuestionCircleOutlined' },
      { path: '/system/audit', title: 'menu:audit', icon: 'AuditOutlined', auth: [P.AuditLogs] },
      { path: '/system/settings', title: 'menu:settings', icon: 'SettingOutlined', auth: [P.Settings] },
      { path: '/system/apiKeys', title: 'menu:apiKeys', icon: 'ApiOutlined', auth: [P.ApiKeys] },
    ],
  },
  {
    path: '/flows',
    title: 'menu:flows',
    icon: 'NodeIndexOutlined',
    children: [
      { path: '/flows/assignTask', title: 'menu:assignTask', icon: 'CarryOutOutlined' },
      { path: '/flows/completedTasks', title: 'menu:completedTasks', icon: 'CheckSquareOutlined' },
      { path: '/flows/instance', title: 'menu:instance', icon: 'DeploymentUnitOutlined', auth: [P.FlowInstances] },
    ],
  },
];

/** spec §6: an item with an auth requirement shows only if the access list holds it; empty groups go. */
export function filterMenus(items: TMenuItem[], access: ReadonlySet<string>): TMenuItem[] {
  const visible: TMenuItem[] = [];
  for (const item of items) {
    if (item.auth?.length && !item.auth.every((code) => access.has(code))) continue;
    if (item.children) {
      const children = filterMenus(item.children, access);
      if (children.length === 0) continue;
      visible.push({ ...item, children });
    } else {
      visible.push({ ...item });
    }
  }
  return visible;
}

export function listMenusFor(access: ReadonlySet<string>): TMenuList {
  return { header: filterMenus(SYSTEM_HEADER, access), sider: filterMenus(SYSTEM_SIDER, access) };
}

/** The unfiltered system menus (header and sider), as defined. */
export function allSystemMenus(): TMenuList {
  return { header: structuredClone(SYSTEM_HEADER), sider: structuredClone(SYSTEM_SIDER) };
}
