import type { FastifyRequest } from 'fastify';

/** Server-side texts in the two complete cultures; the caller's Accept-Language picks one. */
const messages = {
  'zh-CN': {
    'error.validation': '请求参数不正确',
    'error.unauthorized': '未登录或登录已过期',
    'error.forbidden': '没有权限执行此操作',
    'error.delegation': '不能授予或管理超出您自身权限的内容：{codes}',
    'error.delegationOwnPower': '不能为自己增加角色、组织或数据范围，请联系其他管理员',
    'error.notFound': '请求的资源不存在',
    'error.routeNotFound': '请求地址出错',
    'error.internal': '服务器内部错误',
    'error.bodyTooLarge': '请求内容过大',
    'error.malformedJson': '请求内容不是有效的 JSON',
    'error.badUrl': '请求地址格式不正确',
    'error.unsupportedMediaType': '不支持的内容类型',
    'error.tooManyRequests': '请求过于频繁，请稍后再试',
    'error.conflict': '数据已被他人修改，请刷新后重试',
    'error.illFormedText': '文本不能包含空字符（U+0000）或不成对的代理项',
    'error.tooDeep': '内容嵌套超过 {max} 层',
    'error.illFormedCell': '工作表“{sheet}”的单元格 {cell} 包含空字符（U+0000）或不成对的代理项',
    'error.workbookUnreadable': '文件不是有效的 Excel 工作簿（.xlsx）',
    'error.workbookTooManyRows': '文件数据超过 {max} 行（工作表“{sheet}”第 {row} 行），请分批导入',
    'error.workbookTooLarge': '工作簿解压后超过 {max} MB，请分批导入',
    'error.importOutOfMemory': '这个文件一次导入所需的内存超过了上限（{max} MB），请分批导入',
    'auth.invalidCredentials': '用户名或密码错误',
    'auth.lockedOut': '账号已被管理员锁定，请 {minutes} 分钟后再试或联系管理员',
    'auth.disabled': '账号已停用，请联系管理员',
    'auth.registrationDisabled': '系统未开放注册',
    'auth.captchaInvalid': '人机验证未通过或已过期，请重新验证',
    'auth.userExists': '该邮箱已被注册',
    'auth.wrongCurrentPassword': '当前密码不正确',
    'auth.passwordPolicy': '密码至少 {minLength} 位，且需包含大写字母、小写字母、数字和符号中的至少 {classes} 类',
    'auth.passwordChanged': '密码修改成功',
    'auth.loginSuccess': '登录成功',
  },
  'en-US': {
    'error.validation': 'The request is not valid',
    'error.unauthorized': 'You are not signed in or your session has expired',
    'error.forbidden': 'You do not have permission to do this',
    'error.delegation': 'You cannot give or manage more than you hold yourself: {codes}',
    'error.delegationOwnPower': 'You cannot give yourself roles, units or data scopes; ask another administrator',
    'error.notFound': 'The requested resource does not exist',
    'error.routeNotFound': 'Wrong request address',
    'error.internal': 'Internal server error',
    'error.bodyTooLarge': 'The request body is too large',
    'error.malformedJson': 'The request body is not valid JSON',
    'error.badUrl': 'The request address is malformed',
    'error.unsupportedMediaType': 'Unsupported content type',
    'error.tooManyRequests': 'Too many requests, please try again later',
    'error.conflict': 'The data was changed by someone else; refresh and try again',
    'error.illFormedText': 'Text must not contain NUL (U+0000) or unpaired surrogates',
    'error.tooDeep': 'The content is nested more than {max} levels deep',
    'error.illFormedCell': 'Cell {cell} of sheet "{sheet}" contains NUL (U+0000) or unpaired surrogates',
    'error.workbookUnreadable': 'The file is not a valid Excel workbook (.xlsx)',
    'error.workbookTooManyRows': 'The file holds more than {max} rows of data (sheet "{sheet}", row {row}); import it in parts',
    'error.workbookTooLarge': 'The workbook is larger than {max} MB unpacked; import it in parts',
    'error.importOutOfMemory': 'Importing this file at once needs more memory than allowed ({max} MB); import it in parts',
    'auth.invalidCredentials': 'Wrong user name or password',
    'auth.lockedOut': 'An administrator locked the account; try again in {minutes} minutes or contact them',
    'auth.disabled': 'The account is disabled; contact your administrator',
    'auth.registrationDisabled': 'Registration is not open',
    'auth.captchaInvalid': 'The verification failed or has expired; verify again',
    'auth.userExists': 'This email is already registered',
    'auth.wrongCurrentPassword': 'The current password is not correct',
    'auth.passwordPolicy':
      'The password needs at least {minLength} characters and {classes} of: upper case, lower case, digits, symbols',
    'auth.passwordChanged': 'Password changed',
    'auth.loginSuccess': 'Signed in',
  },
} as const;

/** The platform's texts (for the catalogue's completeness test). */
export const PLATFORM_MESSAGES: Record<Culture, Record<string, string>> = messages;

export type MessageKey = keyof (typeof messages)['zh-CN'];
export type Culture = keyof typeof messages;

/**
 * zh-CN or en-US from an `Accept-Language` value: the first Chinese or English language it names;
 * a caller naming only other languages (a language pack an administrator added, Vietnamese, Thai…)
 * reads English, as the web falls back to en-US for them; no language at all reads the product's
 * default, Chinese.
 */
export function cultureOfLanguage(acceptLanguage: string): Culture {
  const tags = acceptLanguage
    .split(',')
    .map((part) => part.split(';')[0]!.trim().toLowerCase())
    .filter((tag) => tag && tag !== '*');
  for (const tag of tags) {
    if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-CN';
    if (tag === 'en' || tag.startsWith('en-')) return 'en-US';
  }
  return tags.length ? 'en-US' : 'zh-CN';
}

export function requestCulture(request: Pick<FastifyRequest, 'headers'>): Culture {
  return cultureOfLanguage(String(request.headers['accept-language'] ?? ''));
}

/** Whom a text is for: a culture, a service context, or a request (its Accept-Language). */
export type TextAudience = Culture | { readonly culture: Culture } | Pick<FastifyRequest, 'headers'>;

export function cultureOf(who: TextAudience): Culture {
  if (typeof who === 'string') return who;
  return 'culture' in who ? who.culture : requestCulture(who);
}

export const fillParams = (text: string, params: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));

export function translate(culture: Culture, key: MessageKey, params: Record<string, string | number> = {}): string {
  return fillParams(messages[culture][key], params);
}
