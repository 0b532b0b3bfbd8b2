import type { FastifyRequest } from 'fastify';
import { AppError, type ValidationErrorItem } from '../../platform/errors.ts';
import { requestCulture, type Culture } from '../../platform/messages.ts';

/** The page designer's server texts in the two complete cultures. */
const texts = {
  'zh-CN': {
    'page.codeTaken': '页面编码“{code}”已被使用',
    'page.codeFixed': '页面已发布，编码不能再修改（权限编码使用它）',
    'page.inUse': '该页面正在被使用，不能删除：{menus}。请先修改或删除它们',
    'page.usedByMenu': '业务菜单“{title}”',
    'page.usedByWorkflow': '工作流“{title}”',
    'page.versionMissing': '版本 {version} 不存在',
    'page.notPublished': '页面尚未发布',
    'page.designProblems': '页面设计有 {count} 个问题，请修正后再发布',
    'page.dataLoss': '发布会丢失数据，未做任何修改：{reasons}',
    'page.importFormat': '不是 Tessera 页面定义导出文件',
    'check.duplicateViewId': '视图标识“{id}”重复',
    'check.duplicateControlId': '控件标识“{id}”重复',
    'check.duplicateViewCode': '视图编码“{code}”重复（不区分大小写）',
    'check.duplicateControlCode': '视图“{view}”中控件编码“{code}”重复（不区分大小写）',
    'check.arrayCompanion': '控件编码“{code}”与标识控件“{owner}”的列表字段重名',
    'check.duplicateButtonCode': '按钮编码“{code}”重复',
    'check.reservedButtonCode': '按钮编码“{code}”是保留字',
    'check.unknownControlType': '控件“{code}”的控件类型 {type} 不存在',
    'check.containerControls': '容器视图“{view}”不能直接包含数据控件，请放入表单或表格视图',
    'check.parentMissing': '视图“{view}”的上级视图不存在或是容器',
    'check.parentCycle': '视图“{view}”的上级视图形成循环',
    'check.nestedWithoutParent': '视图“{view}”嵌套在“{parent}”中，但没有设置上级视图（子表需要关联上级记录）',
    'check.foreignKeyMissing': '子视图“{view}”没有设置关联外键（associateForeignKeyCode）',
    'check.foreignKeyUnknown': '子视图“{view}”的关联外键“{code}”既不是 ParentViewDataId 也不是本视图的控件',
    'check.formula': '{where}的公式有错误：{message}',
    'check.unknownLinkControl': '数据联动引用了不存在的控件“{ref}”',
    'check.unknownStateObject': '页面状态控制引用了不存在的对象“{ref}”',
    'check.linkageCycle': '数据联动形成循环：{codes}',
    'check.lookupSource': '控件“{code}”的数据源不存在或尚未发布',
    'check.lookupNoSource': '控件“{code}”设置了字段映射，但没有选择数据源',
    'check.lookupSourceField': '控件“{code}”的映射源字段“{source}”在数据源中不存在',
    'check.lookupTarget': '控件“{code}”的映射目标“{target}”不是本视图的控件',
    'check.lookupType': '控件“{code}”的映射“{source}”→“{target}”类型不兼容',
    'check.parentControl': '控件“{code}”的上级控件不存在',
    'where.trigger': '触发条件',
    'where.assignment': '赋值',
    'where.default': '默认值',
    'where.join': '关联条件',
    'plan.narrowing': '字段“{column}”有 {count} 行数据无法从 {from} 转换为 {to}',
    'plan.removeWithData': '{what}仍有 {count} 行数据；确认“隐藏并保留”后才能发布',
    'plan.column': '字段“{column}”',
    'plan.table': '视图“{view}”的数据表',
    'plan.nameHeld': '字段名“{column}”正被一个已隐藏的字段占用',
    'plan.reparent': '视图“{view}”的 {count} 行数据属于原来的上级视图，不能改变上级视图',
  },
  'en-US': {
    'page.codeTaken': 'The page code "{code}" is already in use',
    'page.codeFixed': 'The page has been published: its code can no longer change (permission codes use it)',
    'page.inUse': 'This page is in use and cannot be deleted: {menus}. Change or delete them first',
    'page.usedByMenu': 'business menu "{title}"',
    'page.usedByWorkflow': 'workflow "{title}"',
    'page.versionMissing': 'Version {version} does not exist',
    'page.notPublished': 'The page has not been published',
    'page.designProblems': 'The design has {count} problems; fix them before publishing',
    'page.dataLoss': 'Publishing would lose data; nothing was changed: {reasons}',
    'page.importFormat': 'Not a Tessera page definition export',
    'check.duplicateViewId': 'The view id "{id}" is used twice',
    'check.duplicateControlId': 'The control id "{id}" is used twice',
    'check.duplicateViewCode': 'The view code "{code}" is used twice (case-insensitive)',
    'check.duplicateControlCode': 'The control code "{code}" is used twice in view "{view}" (case-insensitive)',
    'check.arrayCompanion': 'The control code "{code}" clashes with the list field of id control "{owner}"',
    'check.duplicateButtonCode': 'The button code "{code}" is used twice',
    'check.reservedButtonCode': 'The button code "{code}" is reserved',
    'check.unknownControlType': 'Control "{code}" has an unknown control type {type}',
    'check.containerControls': 'Container view "{view}" cannot hold data controls; put them in a form or grid view',
    'check.parentMissing': 'The parent view of "{view}" does not exist or is a container',
    'check.parentCycle': 'The parent views of "{view}" form a cycle',
    'check.nestedWithoutParent': 'View "{view}" is nested in "{parent}" but has no parent view (child rows need their parent record)',
    'check.foreignKeyMissing': 'Child view "{view}" has no foreign key (associateForeignKeyCode)',
    'check.foreignKeyUnknown': 'The foreign key "{code}" of child view "{view}" is neither ParentViewDataId nor a control of the view',
    'check.formula': 'The {where} formula has an error: {message}',
    'check.unknownLinkControl': 'A data linkage refers to a control that does not exist: "{ref}"',
    'check.unknownStateObject': 'A page-state control refers to an object that does not exist: "{ref}"',
    'check.linkageCycle': 'Data linkages form a cycle: {codes}',
    'check.lookupSource': 'The data source of control "{code}" does not exist or is not published',
    'check.lookupNoSource': 'Control "{code}" maps fields but has no data source',
    'check.lookupSourceField': 'The source field "{source}" mapped by control "{code}" does not exist in the data source',
    'check.lookupTarget': 'The target "{target}" mapped by control "{code}" is not a control of this view',
    'check.lookupType': 'The mapping "{source}" → "{target}" of control "{code}" has incompatible types',
    'check.parentControl': 'The parent control of "{code}" does not exist',
    'where.trigger': 'trigger',
    'where.assignment': 'assignment',
    'where.default': 'default value',
    'where.join': 'join condition',
    'plan.narrowing': '{count} rows of column "{column}" cannot be converted from {from} to {to}',
    'plan.removeWithData': '{what} still has {count} rows of data; confirm "hide and keep" to publish',
    'plan.column': 'Column "{column}"',
    'plan.table': 'The table of view "{view}"',
    'plan.nameHeld': 'The column name "{column}" is held by a hidden column',
    'plan.reparent': '{count} rows of view "{view}" belong to records of its former parent view; its parent cannot change',
  },
} as const;

export type PagesTextKey = keyof (typeof texts)['zh-CN'];
export type Translate = (key: PagesTextKey, params?: Record<string, string | number>) => string;

export function translator(culture: Culture): Translate {
  return (key, params = {}) => texts[culture][key].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));
}

export const requestTranslator = (request: Pick<FastifyRequest, 'headers'>) => translator(requestCulture(request));

/** An error with a localized message (400 with validation errors, or any status with details). */
export function pagesError(
  request: Pick<FastifyRequest, 'headers'>,
  statusCode: number,
  code: string,
  key: PagesTextKey,
  params: Record<string, string | number> = {},
  extra: { members?: string[]; details?: unknown } = {},
): AppError {
  const message = requestTranslator(request)(key, params);
  const validationErrors: ValidationErrorItem[] | undefined =
    statusCode === 400 ? [{ message, members: extra.members ?? [] }] : undefined;
  return new AppError(statusCode, code, null, { message, details: extra.details, validationErrors });
}
