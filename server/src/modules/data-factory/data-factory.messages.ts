import { moduleMessages } from '../../platform/module-messages.ts';

/** The data factory's server texts in the two complete cultures. */
const texts = {
  'zh-CN': {
    'procedure.notFound': '过程不存在',
    'procedure.inUse': '过程正被以下已发布页面的按钮使用，不能删除：{pages}',
    'procedure.versionNotFound': '过程没有第 {version} 版',
    'procedure.codeTaken': '编码“{code}”已被另一个过程使用',
    'procedure.nameTwice': '名称“{name}”在参数和返回列中出现了两次',
    'procedure.outWithTable': '返回数据表的函数不能有 OUT 参数（PostgreSQL 的规则）：请把它们作为返回列',
    'procedure.defaultType': '参数 {name} 的默认值不是{type}类型',
    'procedure.forbidden': '函数体不能使用“{word}”：数据工厂的函数不能切换角色、执行动态 SQL、修改结构或改变超时（见 README“数据工厂”）',
    'procedure.compileFailed': 'PostgreSQL 无法创建这个函数：{reason}',
    'procedure.bodyRequired': '请填写函数体',
    'procedure.factoryName': '数据工厂函数的名称“{name}”只能是小写字母、数字和下划线，以字母或下划线开头',
    'procedure.inoutFactory': '数据工厂的函数没有 INOUT 参数：请分成 IN 参数和 OUT 参数',
    'procedure.refcursorFactory': 'refcursor 只用于 PostgreSQL 数据源的过程：数据工厂的函数请返回数据表',
    'procedure.routineRequired': '请选择数据源中的过程或函数',
    'procedure.routineWithoutSource': '只有外部数据源的过程才指定存储过程',
    'procedure.sourceMissing': '数据源不存在，或不是数据库（HTTP 接口没有存储过程）',
    'procedure.sourceFixed': '过程创建后不能改换数据源：请新建一个过程',
    'procedure.functionOuts': '{kind}的函数只有 IN 参数：OUT 和 INOUT 参数属于存储过程',
    'run.parameterType': '参数 {name} 的值不是{type}类型',
    'run.unknownParameter': '过程没有 IN 参数 {name}',
    'run.timeout': '过程“{code}”在 {seconds} 秒内没有完成，已取消',
    'run.failed': '过程“{code}”运行出错：{reason}',
    'run.noPermission': '没有运行过程“{code}”的权限',
    'schedule.notFound': '计划不存在',
    'schedule.tooMany': '一个过程最多有 {count} 个计划',
  },
  'en-US': {
    'procedure.notFound': 'The procedure does not exist',
    'procedure.inUse': 'Buttons of these published pages run the procedure, so it cannot be deleted: {pages}',
    'procedure.versionNotFound': 'The procedure has no version {version}',
    'procedure.codeTaken': 'Code "{code}" is used by another procedure',
    'procedure.nameTwice': 'Name "{name}" is used twice among the parameters and returned columns',
    'procedure.outWithTable': 'A function returning a table has no OUT parameters (a PostgreSQL rule): return them as columns',
    'procedure.defaultType': 'The default of parameter {name} is not of type {type}',
    'procedure.forbidden': 'The body may not use "{word}": data factory functions do not switch roles, run dynamic SQL, change structure or change timeouts (README "Data factory")',
    'procedure.compileFailed': 'PostgreSQL cannot create this function: {reason}',
    'procedure.bodyRequired': 'Enter the function body',
    'procedure.factoryName': 'Name "{name}" of a data factory function may hold only lower-case letters, digits and _, starting with a letter or _',
    'procedure.inoutFactory': 'Data factory functions have no INOUT parameters: use an IN and an OUT parameter',
    'procedure.refcursorFactory': 'refcursor is for procedures of PostgreSQL sources only: a data factory function returns a table',
    'procedure.routineRequired': 'Choose a procedure or function of the data source',
    'procedure.routineWithoutSource': 'Only a procedure of an external data source names a stored routine',
    'procedure.sourceMissing': 'The data source does not exist or is not a database (HTTP APIs have no stored procedures)',
    'procedure.sourceFixed': 'A procedure keeps its data source once created: create a new procedure',
    'procedure.functionOuts': 'Functions of {kind} have IN parameters only: OUT and INOUT parameters belong to stored procedures',
    'run.parameterType': 'The value of parameter {name} is not of type {type}',
    'run.unknownParameter': 'The procedure has no IN parameter {name}',
    'run.timeout': 'Procedure "{code}" did not finish within {seconds} s and was cancelled',
    'run.failed': 'Procedure "{code}" failed: {reason}',
    'run.noPermission': 'You may not run procedure "{code}"',
    'schedule.notFound': 'The schedule does not exist',
    'schedule.tooMany': 'A procedure has at most {count} schedules',
  },
};

export type DataFactoryTextKey = keyof (typeof texts)['zh-CN'];
const messages = moduleMessages<DataFactoryTextKey>(texts, 'data-factory');

export const factoryError = messages.error;
export const factoryInvalid = messages.invalid;
