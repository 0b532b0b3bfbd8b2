import type { FastifyRequest } from 'fastify';
import { AppError, type ValidationErrorItem } from '../../platform/errors.ts';
import { requestCulture } from '../../platform/messages.ts';

/** The identity module's server texts in the two complete cultures. */
const texts = {
  'zh-CN': {
    'unit.nameTaken': '同一上级下已有名为“{name}”的组织机构',
    'unit.parentMissing': '上级组织机构不存在',
    'unit.moveUnderItself': '不能把组织机构移动到它自己或它的下级之下',
    'unit.notEmpty': '该组织机构下还有 {children} 个下级机构和 {members} 名成员，请确认级联删除',
    'unit.leaderNotMember': '负责人必须是该组织机构的成员',
    'unit.notMember': '该用户不是此组织机构的成员',
    'unit.tooManyChildren': '同一上级下的组织机构数量已达上限',
    'user.userNameTaken': '用户名“{userName}”已被使用',
    'user.emailTaken': '邮箱“{email}”已被使用',
    'user.unknownRoles': '角色不存在：{names}',
    'user.unknownUnits': '组织机构不存在',
    'user.unknownUsers': '用户不存在：{ids}',
    'user.passwordPolicy': '密码至少 {minLength} 位，且需包含大写字母、小写字母、数字和符号中的至少 {classes} 类',
    'user.cannotDeleteSelf': '不能删除自己的账号',
    'user.cannotLockSelf': '不能锁定自己的账号',
    'user.cannotDeactivateSelf': '不能停用自己的账号',
    'user.lastAdministrator': '这是最后一位管理员，不能删除、锁定、停用或移出管理员角色',
    'user.lockInPast': '锁定截止时间必须晚于当前时间',
    'role.nameTaken': '角色名“{name}”已被使用',
    'role.staticRename': '系统内置角色不能改名',
    'role.staticDelete': '系统内置角色不能删除',
    'role.adminNotDefault': '管理员角色不能设为默认角色',
    'import.unreadable': '无法读取 Excel 文件，请使用下载的导入模板',
    'import.noRows': '文件中没有可导入的数据行',
    'import.tooManyRows': '一次最多导入 {max} 行',
    'import.missingColumn': '缺少必填列：{column}',
    'import.rowError': '第 {row} 行 {column}：{message}',
    'import.required': '必填',
    'import.duplicateInFile': '与第 {row} 行重复',
    'import.badBoolean': '请填写“是”或“否”',
    'import.unknownUnit': '组织机构“{unit}”不存在',
    'import.invalidRows': '有 {count} 处错误，未导入任何数据',
    'sheet.users': '用户',
    'sheet.instructions': '说明',
    'sheet.yes': '是',
    'sheet.no': '否',
    'sheet.locked': '已锁定',
    'sheet.help.1': '第一行是列标题，请勿修改；从第二行开始每行一个用户。',
    'sheet.help.2': '必填：用户名、密码。密码需满足系统密码策略。',
    'sheet.help.3': '角色：多个用逗号分隔；留空则授予默认角色。',
    'sheet.help.4': '组织机构：填写完整路径（如 总部/研发部）或机构编码，多个用分号分隔。',
    'sheet.help.5': '启用：是 / 否，留空为是。任一行有错误时不会导入任何数据。',
    'sheet.roles': '可用角色',
    'sheet.units': '可用组织机构',
  },
  'en-US': {
    'unit.nameTaken': 'The parent already has a unit named "{name}"',
    'unit.parentMissing': 'The parent unit does not exist',
    'unit.moveUnderItself': 'A unit cannot be moved under itself or one of its descendants',
    'unit.notEmpty': 'The unit still has {children} sub-units and {members} members; confirm a cascade delete',
    'unit.leaderNotMember': 'The leader must be a member of the unit',
    'unit.notMember': 'The user is not a member of this unit',
    'unit.tooManyChildren': 'The parent has reached the maximum number of sub-units',
    'user.userNameTaken': 'The user name "{userName}" is already taken',
    'user.emailTaken': 'The e-mail "{email}" is already taken',
    'user.unknownRoles': 'Unknown roles: {names}',
    'user.unknownUnits': 'Unknown organisation units',
    'user.unknownUsers': 'Unknown users: {ids}',
    'user.passwordPolicy': 'The password needs at least {minLength} characters and {classes} of: upper case, lower case, digits, symbols',
    'user.cannotDeleteSelf': 'You cannot delete your own account',
    'user.cannotLockSelf': 'You cannot lock your own account',
    'user.cannotDeactivateSelf': 'You cannot deactivate your own account',
    'user.lastAdministrator': 'This is the last administrator: it cannot be deleted, locked, deactivated or leave the admin role',
    'user.lockInPast': 'The lock must end in the future',
    'role.nameTaken': 'The role name "{name}" is already taken',
    'role.staticRename': 'A built-in role cannot be renamed',
    'role.staticDelete': 'A built-in role cannot be deleted',
    'role.adminNotDefault': 'The administrator role cannot be a default role',
    'import.unreadable': 'The Excel file cannot be read; use the downloaded import template',
    'import.noRows': 'The file has no rows to import',
    'import.tooManyRows': 'At most {max} rows can be imported at once',
    'import.missingColumn': 'A required column is missing: {column}',
    'import.rowError': 'Row {row} {column}: {message}',
    'import.required': 'required',
    'import.duplicateInFile': 'duplicates row {row}',
    'import.badBoolean': 'use "yes" or "no"',
    'import.unknownUnit': 'the unit "{unit}" does not exist',
    'import.invalidRows': '{count} errors found; nothing was imported',
    'sheet.users': 'Users',
    'sheet.instructions': 'Instructions',
    'sheet.yes': 'yes',
    'sheet.no': 'no',
    'sheet.locked': 'locked',
    'sheet.help.1': 'Row 1 holds the column titles; keep them. Each row from row 2 is one user.',
    'sheet.help.2': 'Required: user name and password. Passwords must meet the password policy.',
    'sheet.help.3': 'Roles: several separated by commas; empty gives the default roles.',
    'sheet.help.4': 'Organisation units: the full path (e.g. HQ/R&D) or the unit code; several separated by semicolons.',
    'sheet.help.5': 'Active: yes / no, empty means yes. If any row has an error, nothing is imported.',
    'sheet.roles': 'Available roles',
    'sheet.units': 'Available organisation units',
  },
} as const;

export type IdentityTextKey = keyof (typeof texts)['zh-CN'];

export function identityText(request: Pick<FastifyRequest, 'headers'>, key: IdentityTextKey, params: Record<string, string | number> = {}) {
  return texts[requestCulture(request)][key].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** A 400 naming one or more offending members, raised before anything is written. */
export function identityInvalid(
  request: Pick<FastifyRequest, 'headers'>,
  key: IdentityTextKey,
  members: string[],
  params: Record<string, string | number> = {},
) {
  const message = identityText(request, key, params);
  return new AppError(400, 'ValidationError', null, { message, validationErrors: [{ message, members }] });
}

/** A refused operation (a business rule, not a malformed request) with its own error code. */
export function identityRefused(
  request: Pick<FastifyRequest, 'headers'>,
  code: string,
  key: IdentityTextKey,
  params: Record<string, string | number> = {},
  details?: unknown,
) {
  const message = identityText(request, key, params);
  return new AppError(400, code, null, { message, details, validationErrors: [{ message, members: [] }] });
}

export function validationFailure(message: string, validationErrors: ValidationErrorItem[], details?: unknown) {
  return new AppError(400, 'ValidationError', null, { message, validationErrors, details });
}
