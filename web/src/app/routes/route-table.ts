/**
 * spec §2 route table: every path with its name, title (an i18n key of the `menu` namespace) and
 * meta. Pages come from `modulePages` (module-pages.tsx) by path; a path nobody contributes yet
 * shows the empty state of the module named in `module`.
 */
export type RouteLayout = 'shell' | 'view' | 'standalone' | 'public';
export type OwnPage = 'console' | 'log' | 'icons' | 'diagnostics' | 'menuRedirect' | 'redirectHelper' | 'refreshHelper';

export interface RouteDef {
  path: string;
  name: string;
  title: string;
  icon?: string;
  layout: RouteLayout;
  /** spec §2: every route change opens a tab unless this is false. */
  tabs?: boolean;
  closable?: boolean;
  /** spec §2 header entry system: the route hides the sider. */
  hideSider?: boolean;
  /** The module that provides the page (shell i18n key `modules.<module>`). */
  module?: string;
  own?: OwnPage;
  redirect?: string;
}

export interface RedirectDef {
  path: string;
  to: string;
}

/** spec §2: area roots redirect to their first page. */
export const REDIRECTS: RedirectDef[] = [
  { path: '/', to: '/dashboard/console' },
  // spec §2: `/` has an `index` child that redirects too.
  { path: '/index', to: '/dashboard/console' },
  { path: '/dashboard', to: '/dashboard/console' },
  { path: '/design', to: '/design/form' },
  { path: '/builtIn', to: '/builtIn/user' },
  { path: '/dataSet', to: '/dataSet/source' },
  { path: '/system', to: '/system/localization' },
  { path: '/vdashboard', to: '/vdashboard/console' },
  { path: '/flows', to: '/flows/assignTask' },
  { path: '/project', to: '/project/items' },
];

const shell = (path: string, name: string, title: string, module?: string, extra: Partial<RouteDef> = {}): RouteDef => ({
  path,
  name,
  title,
  module,
  layout: 'shell',
  ...extra,
});
const standalone = (path: string, name: string, title: string, module?: string, extra: Partial<RouteDef> = {}): RouteDef => ({
  path,
  name,
  title,
  module,
  layout: 'standalone',
  tabs: false,
  ...extra,
});

export const ROUTES: RouteDef[] = [
  shell('/log', 'system-log', 'menu:log', undefined, { own: 'log', hideSider: true, icon: 'FileSearchOutlined' }),
  shell('/refresh', 'refresh', 'menu:refresh', undefined, { own: 'refreshHelper', tabs: false }),
  shell('/redirect/*', 'redirect', 'menu:redirect', undefined, { own: 'redirectHelper', tabs: false }),

  shell('/dashboard/console', 'dashboard-console', 'menu:console', undefined, { own: 'console', closable: false, icon: 'HomeOutlined' }),
  shell('/dashboard/tsx-display', 'dashboard-tsx-display', 'menu:tsxDisplay', 'dashboards'),

  shell('/design/form', 'design-form', 'menu:form', 'pages', { icon: 'FormOutlined' }),
  shell('/design/sheetIndex', 'design-sheetIndex', 'menu:sheetIndex', 'printTemplates', { icon: 'PrinterOutlined' }),
  shell('/design/workflow', 'design-workflow', 'menu:workflow', 'workflow', { icon: 'ApartmentOutlined' }),
  shell('/design/authority', 'design-authority', 'menu:authority', 'authorization', { icon: 'SafetyCertificateOutlined' }),
  shell('/design/dataTransmission', 'design-dataTransmission', 'menu:dataTransmission', 'dataTransmission', { icon: 'SwapOutlined' }),
  shell('/design/chartList', 'design-chartList', 'menu:chartList', 'dashboards', { icon: 'BarChartOutlined' }),
  shell('/design/scanCode', 'design-scanCode', 'menu:scanCode', 'scanCode', { icon: 'ScanOutlined' }),

  shell('/builtIn/organization', 'builtIn-organization', 'menu:organization', 'identity', { icon: 'ApartmentOutlined' }),
  shell('/builtIn/user', 'builtIn-user', 'menu:user', 'identity', { icon: 'UserOutlined' }),
  shell('/builtIn/role', 'builtIn-role', 'menu:role', 'identity', { icon: 'TeamOutlined' }),
  shell('/builtIn/menu', 'builtIn-menu', 'menu:menu', 'menus', { icon: 'MenuOutlined' }),
  shell('/builtIn/authorization', 'builtIn-authorization', 'menu:authorization', 'authorization', { icon: 'KeyOutlined' }),

  shell('/dataSet/source', 'dataSet-source', 'menu:source', 'dataSources', { icon: 'CloudServerOutlined' }),
  shell('/dataSet/storedProcedure', 'dataSet-storedProcedure', 'menu:storedProcedure', 'dataFactory', { icon: 'CodeOutlined' }),
  shell('/dataSet/documentNumber', 'dataSet-documentNumber', 'menu:documentNumber', 'documentNumbers', { icon: 'NumberOutlined' }),
  shell('/dataSet/dictionary', 'dataSet-dictionary', 'menu:dictionary', 'dictionaries', { icon: 'BookOutlined' }),

  shell('/system/localization', 'system-localization', 'menu:localization', 'localization', { icon: 'GlobalOutlined' }),
  shell('/system/documentation', 'system-documentation', 'menu:documentation', 'help', { icon: 'QuestionCircleOutlined' }),
  shell('/system/audit', 'system-audit', 'menu:audit', 'audit', { icon: 'AuditOutlined' }),
  shell('/system/settings', 'system-settings', 'menu:settings', 'settings', { icon: 'SettingOutlined' }),

  shell('/flows/assignTask', 'flows-assignTask', 'menu:assignTask', 'workflow', { icon: 'CarryOutOutlined' }),
  shell('/flows/completedTasks', 'flows-completedTasks', 'menu:completedTasks', 'workflow', { icon: 'CheckSquareOutlined' }),
  shell('/flows/instance', 'flows-instance', 'menu:instance', 'workflow', { icon: 'DeploymentUnitOutlined' }),

  // spec §2: /menu/:menuId goes to its first params path; the title is the stored menu title.
  shell('/menu/:menuId', 'view-menu', 'menu:viewParams', undefined, { own: 'menuRedirect', tabs: false }),
  shell('/menu/:menuId/params/:menuChildId', 'view-params', 'menu:viewParams', 'businessData', { icon: 'AppstoreOutlined' }),

  { path: '/vdashboard/console', name: 'vdashboard-console', title: 'menu:console', layout: 'view', tabs: false, own: 'console' },
  { path: '/vdashboard/tsx-display', name: 'vdashboard-tsx-display', title: 'menu:tsxDisplay', layout: 'view', tabs: false, module: 'dashboards' },

  standalone('/pageDefinition', 'pageDefinition', 'menu:pageDefinition', 'pages'),
  standalone('/sheet', 'sheet', 'menu:sheet', 'printTemplates'),
  standalone('/flow', 'flow', 'menu:flow', 'workflow'),
  standalone('/icon', 'icon', 'menu:icon', undefined, { own: 'icons' }),
  standalone('/11', 'test', 'menu:test', undefined, { own: 'diagnostics' }),
  standalone('/TvLogin', 'TvLogin', 'menu:tvLogin', 'scanCode', { layout: 'public' }),
  standalone('/register', 'register', 'menu:register', 'auth', { layout: 'public' }),
  standalone('/deviceBind', 'deviceBind', 'menu:deviceBind', 'scanCode'),
  standalone('/chart/:id', 'chart', 'menu:workbench', 'dashboards'),
  standalone('/chart/home/:id', 'chart-home', 'menu:chartHome', 'dashboards'),
  standalone('/chart/preview/:id', 'chart-preview', 'menu:chartPreview', 'dashboards'),
  standalone('/chart/edit/:id', 'chart-edit', 'menu:chartEdit', 'dashboards'),
  standalone('/project/items', 'project-items', 'menu:projectItems', 'dashboards'),
  standalone('/project/my-template', 'project-my-template', 'menu:myTemplate', 'dashboards'),
  standalone('/project/template-market', 'project-template-market', 'menu:templateMarket', 'dashboards'),
  standalone('/reload', 'reload', 'menu:refresh', undefined, { own: 'refreshHelper' }),
];

export const DASHBOARD_PATH = '/dashboard/console';
export const LOGIN_PATH = '/login';
