import { AppError, type ValidationErrorItem } from '../../platform/errors.ts';
import type { TextAudience } from '../../platform/messages.ts';
import { moduleMessages } from '../../platform/module-messages.ts';

/** The localization module's server texts in the two complete cultures. */
const texts = {
  'zh-CN': {
    'pack.cultureTaken': '语言“{culture}”的语言包已存在',
    'pack.cultureFixed': '语言包的语言代码不能修改',
    'pack.builtInDelete': '内置语言包（{culture}）不能删除',
    'pack.defaultDelete': '默认语言包不能删除，请先设置其他默认语言',
    'pack.defaultDisabled': '默认语言包必须启用',
    'pack.needDefault': '必须保留一个默认语言包，请在其他语言包上设置默认',
    'pack.unknownCulture': '语言“{culture}”没有启用的语言包',
    'text.unknownPack': '语言“{culture}”没有语言包',
    'text.exists': '该语言下已有此键的文本（{resource}:{key}）',
    'text.keyClash': '键“{key}”与已有的键“{other}”冲突（一个键不能同时是文本和分组）',
    'import.unreadable': '无法读取文件，请使用导出的 JSON 或 Excel 文件',
    'import.badJson': 'JSON 文件格式不正确：需要 {"texts": {"命名空间": {…}}}',
    'import.noTexts': '文件中没有文本',
    'import.tooMany': '一次最多导入 {max} 条文本',
    'import.tooManyRows': '一次最多导入 {max} 条文本（文件第 {row} 行超出），请分批导入',
    'import.rowError': '{where}：{message}',
    'import.badNamespace': '命名空间格式不正确',
    'import.badKey': '键格式不正确',
    'import.badValue': '文本必须是字符串且不超过 {max} 个字符',
    'import.duplicate': '文件中重复的键',
    'import.invalidRows': '有 {count} 处错误，未导入任何数据',
    'sheet.texts': '文本',
    'sheet.namespace': '命名空间',
    'sheet.key': '键',
    'sheet.value': '文本',
    'sheet.source': '来源',
    'sheet.sourceAdmin': '管理员',
    'sheet.sourceBuiltIn': '内置',
  },
  'en-US': {
    'pack.cultureTaken': 'A language pack for "{culture}" already exists',
    'pack.cultureFixed': 'The culture of a language pack cannot change',
    'pack.builtInDelete': 'The built-in language pack ({culture}) cannot be deleted',
    'pack.defaultDelete': 'The default language pack cannot be deleted; make another one the default first',
    'pack.defaultDisabled': 'The default language pack must be enabled',
    'pack.needDefault': 'One pack must stay the default; set another pack as the default instead',
    'pack.unknownCulture': 'There is no enabled language pack for "{culture}"',
    'text.unknownPack': 'There is no language pack for "{culture}"',
    'text.exists': 'This culture already has a text for this key ({resource}:{key})',
    'text.keyClash': 'The key "{key}" clashes with the existing key "{other}" (a key cannot be both a text and a group)',
    'import.unreadable': 'The file cannot be read; use an exported JSON or Excel file',
    'import.badJson': 'The JSON file is not valid: it needs {"texts": {"namespace": {…}}}',
    'import.noTexts': 'The file has no texts',
    'import.tooMany': 'At most {max} texts can be imported at once',
    'import.tooManyRows': 'At most {max} texts can be imported at once (row {row} of the file is past that); import it in parts',
    'import.rowError': '{where}: {message}',
    'import.badNamespace': 'The namespace is not valid',
    'import.badKey': 'The key is not valid',
    'import.badValue': 'The text must be a string of at most {max} characters',
    'import.duplicate': 'The key appears twice in the file',
    'import.invalidRows': '{count} errors; nothing was imported',
    'sheet.texts': 'Texts',
    'sheet.namespace': 'Namespace',
    'sheet.key': 'Key',
    'sheet.value': 'Text',
    'sheet.source': 'Source',
    'sheet.sourceAdmin': 'Administrator',
    'sheet.sourceBuiltIn': 'Built-in',
  },
} as const;

export type LocalizationMessage = keyof (typeof texts)['zh-CN'];
const messages = moduleMessages<LocalizationMessage>(texts, 'localization');

export const l10nText = messages.text;
/** A 400 with one validation error in the caller's language. */
export const l10nInvalid = messages.invalid;

/** A 400 listing several problems (an import's rows). */
export function l10nInvalidMany(who: TextAudience, errors: ValidationErrorItem[]) {
  const message = l10nText(who, 'import.invalidRows', { count: errors.length });
  return new AppError(400, 'ValidationError', null, { message, validationErrors: errors.slice(0, 200) });
}
