import { moduleMessages } from '../../platform/module-messages.ts';

/** Authorization's server texts (permission definitions, grants, data scopes) in the two complete cultures. */
const texts = {
  'zh-CN': {
    'definition.parentMissing': '上级权限“{name}”不存在',
    'definition.parentOtherGroup': '上级权限必须在同一分组中',
    'definition.parentCycle': '权限不能放在自身或其下级之下',
    'definition.menuCodes': '业务菜单的权限随菜单创建',
    'definition.exists': '权限“{name}”已存在',
    'definition.readOnlyEdit': '系统权限和业务菜单权限不能在这里修改',
    'definition.readOnlyDelete': '系统权限和业务菜单权限不能在这里删除',
    'page.reservedCode': '“{code}”是页面自身的保留编码',
    'page.buttonTwice': '按钮“{code}”重复列出',
    'page.fieldTwice': '字段“{code}”重复列出',
    'grants.permissionTwice': '权限“{name}”重复列出',
    'grants.unknownPermissions': '未知权限：{names}',
    'grants.unknownPermission': '未知权限“{name}”',
    'grants.adminRole': '管理员角色拥有全部权限，不能修改其授权',
    'scope.closesBeforeOpen': '右括号出现在对应的左括号之前',
    'scope.unbalanced': '括号不匹配',
    'scope.pageTwice': '页面“{page}”重复列出',
    'scope.customNeedsCondition': '自定义数据范围至少需要一个条件',
    'scope.onlyCustomConditions': '只有自定义数据范围才能设置条件',
    'scope.adminRole': '管理员角色始终可以查看全部数据',
  },
  'en-US': {
    'definition.parentMissing': 'Parent permission {name} does not exist',
    'definition.parentOtherGroup': 'The parent must be in the same group',
    'definition.parentCycle': 'A permission cannot be placed under itself or its own children',
    'definition.menuCodes': 'Business-menu permissions are created with their menu',
    'definition.exists': 'Permission {name} already exists',
    'definition.readOnlyEdit': 'System and business-menu permissions cannot be edited here',
    'definition.readOnlyDelete': 'System and business-menu permissions cannot be deleted here',
    'page.reservedCode': "{code} is reserved for the page's own codes",
    'page.buttonTwice': 'Button {code} is listed twice',
    'page.fieldTwice': 'Field {code} is listed twice',
    'grants.permissionTwice': 'Permission {name} is listed twice',
    'grants.unknownPermissions': 'Unknown permission: {names}',
    'grants.unknownPermission': 'Unknown permission {name}',
    'grants.adminRole': 'The administrator role holds every permission; its grants cannot be changed',
    'scope.closesBeforeOpen': 'A bracket closes before it opens',
    'scope.unbalanced': 'Brackets do not balance',
    'scope.pageTwice': 'Page {page} is listed twice',
    'scope.customNeedsCondition': 'A custom scope needs at least one condition',
    'scope.onlyCustomConditions': 'Only a custom scope takes conditions',
    'scope.adminRole': 'The administrator role always sees all data',
  },
} as const;

export type AuthorizationTextKey = keyof (typeof texts)['zh-CN'];
const messages = moduleMessages<AuthorizationTextKey>(texts, 'authorization');
export const authorizationText = messages.text;
/** The usual 400 of the module, in the caller's language. */
export const authorizationInvalid = messages.invalid;
