import { moduleMessages } from '../../platform/module-messages.ts';

/** The dictionaries module's server texts in the two complete cultures. */
const texts = {
  'zh-CN': {
    'dictionary.codeTaken': '字典编码“{code}”已被使用',
    'dictionary.inUse': '字典正被以下已发布页面使用，不能删除：{pages}',
    'dictionary.codeInUse': '字典正被以下已发布页面使用，不能修改编码：{pages}',
    'dictionary.unknown': '字典“{code}”不存在',
    'item.duplicateCode': '项目编码“{code}”重复',
    'item.duplicateId': '同一个项目出现了两次',
    'item.unknownId': '项目不存在（可能已被他人删除），请刷新后重试',
    'item.codeChanged': '项目编码是记录中保存的值，不能修改（“{from}”→“{to}”）；请停用旧项目并新增一个',
    'item.parentMissing': '上级项目“{code}”不存在',
    'item.parentNotTree': '只有树形字典的项目可以有上级',
    'item.cycle': '项目“{code}”不能放在它自己或它的下级之下',
    'import.tooManyRows': '一个字典最多 {max} 个项目，文件第 {row} 行已超出',
    'import.tooManyItems': '一个字典最多 {max} 个项目，导入后将有 {count} 个',
    'import.noRows': '文件中没有可导入的数据行',
    'import.missingColumn': '缺少必填列：{column}',
    'import.noLabelColumn': '缺少名称列（如“名称 (zh-CN)”）',
    'import.rowError': '第 {row} 行 {column}：{message}',
    'import.required': '必填',
    'import.badBoolean': '请填写“是”或“否”',
    'import.duplicateInFile': '与第 {row} 行重复',
    'import.invalidRows': '有 {count} 处错误，未导入任何数据',
    'sheet.items': '字典项目',
    'sheet.code': '编码',
    'sheet.label': '名称',
    'sheet.parent': '上级编码',
    'sheet.enabled': '启用',
    'sheet.color': '颜色',
    'sheet.yes': '是',
    'sheet.no': '否',
  },
  'en-US': {
    'dictionary.codeTaken': 'The dictionary code "{code}" is already taken',
    'dictionary.inUse': 'The dictionary is used by these published pages and cannot be deleted: {pages}',
    'dictionary.codeInUse': 'The dictionary is used by these published pages; its code cannot change: {pages}',
    'dictionary.unknown': 'The dictionary "{code}" does not exist',
    'item.duplicateCode': 'The item code "{code}" appears twice',
    'item.duplicateId': 'The same item appears twice',
    'item.unknownId': 'The item does not exist (someone may have removed it); refresh and try again',
    'item.codeChanged': 'An item code is the value records store and cannot change ("{from}" → "{to}"); disable the item and add a new one',
    'item.parentMissing': 'The parent item "{code}" does not exist',
    'item.parentNotTree': 'Only items of a tree dictionary can have a parent',
    'item.cycle': 'The item "{code}" cannot be placed under itself or one of its descendants',
    'import.tooManyRows': 'A dictionary holds at most {max} items; row {row} of the file is past that',
    'import.tooManyItems': 'A dictionary holds at most {max} items; the import would make it {count}',
    'import.noRows': 'The file has no rows to import',
    'import.missingColumn': 'A required column is missing: {column}',
    'import.noLabelColumn': 'A label column is missing (e.g. "Label (en-US)")',
    'import.rowError': 'Row {row} {column}: {message}',
    'import.required': 'required',
    'import.badBoolean': 'use "yes" or "no"',
    'import.duplicateInFile': 'duplicates row {row}',
    'import.invalidRows': '{count} errors found; nothing was imported',
    'sheet.items': 'Items',
    'sheet.code': 'Code',
    'sheet.label': 'Label',
    'sheet.parent': 'Parent code',
    'sheet.enabled': 'Enabled',
    'sheet.color': 'Colour',
    'sheet.yes': 'yes',
    'sheet.no': 'no',
  },
} as const;

export type DictionaryTextKey = keyof (typeof texts)['zh-CN'];
const messages = moduleMessages<DictionaryTextKey>(texts, 'dictionaries');

export const dictionaryText = messages.text;
/** A 400 naming the offending members, raised before anything is written. */
export const dictionaryInvalid = messages.invalid;
