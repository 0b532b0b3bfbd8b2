import { DATE_OUT_OF_RANGE_MESSAGE } from '@tessera/core/helpers/iso-date';
import { localizeCoreMessage } from '@tessera/core/messages/core-messages';
import { AppError, type ValidationErrorItem } from '../../platform/errors.ts';
import type { Culture, TextAudience } from '../../platform/messages.ts';
import { moduleMessages } from '../../platform/module-messages.ts';

/** The business runtime's server texts in the two complete cultures. */
const texts = {
  'zh-CN': {
    'page.notFound': '页面“{page}”不存在或尚未发布',
    'view.notFound': '视图“{view}”不在页面中',
    'control.notFound': '控件“{control}”不在页面中',
    'record.notFound': '记录不存在，或不在你的数据范围内',
    'record.conflict': '该记录已被{user}于{time}修改，请刷新后再保存',
    'field.required': '“{title}”必须填写',
    'field.maxLength': '“{title}”最多 {max} 个字符',
    'field.min': '“{title}”不能小于 {min}',
    'field.max': '“{title}”不能大于 {max}',
    'field.invalid': '“{title}”：{message}',
    'value.decimals': '最多 {accuracy} 位小数',
    'field.notAnOption': '“{title}”：{values} 不在可选项中',
    'field.notALookupRow': '“{title}”：{values} 不是您可以选择的记录',
    'field.fileUnknown': '“{title}”：文件不存在或不可用',
    'date.outOfRange': '日期必须在 1 年到 9999 年之间',
    'row.id': '行标识必须是 GUID',
    'row.duplicate': '行标识“{id}”重复',
    'row.parent': '行的上级记录不在本次保存的数据中',
    'row.taken': '行标识已被其他记录使用',
    'save.masterMissing': '缺少主视图“{view}”的记录',
    'save.oneMaster': '一次只能保存一条主记录',
    'view.needsParent': '子视图需要指定上级记录（parentId）',
    'view.notChild': '只有子视图的行可以这样删除',
    'sort.unknown': '不能按“{field}”排序',
    'lookup.noSource': '控件“{control}”没有数据源',
    'lookup.noParentField': '控件“{control}”的数据源没有上级字段“{field}”',
    'docNo.noRule': '控件“{control}”没有设置单据编号规则',
    'import.empty': '文件中没有数据行',
    'import.masterRow': '主表行号',
    'import.sheet': '工作表“{sheet}”不是本页面的子视图',
    'import.noMasterRowColumn': '工作表“{sheet}”缺少“主表行号”列',
    'import.badMasterRow': '主表行号“{value}”不是主表工作表中的数据行',
    'import.parentRow': '上级行号',
    'import.noParentRowColumn': '工作表“{sheet}”缺少“上级行号”列',
    'import.badParentRow': '上级行号“{value}”不是工作表“{sheet}”中的数据行',
    'import.header': '表头“{column}”不是本视图的字段',
    'import.failed': '导入失败：{count} 个错误，未导入任何数据',
    'import.badFile': '无法读取 Excel 文件',
  },
  'en-US': {
    'page.notFound': 'Page "{page}" does not exist or is not published',
    'view.notFound': 'View "{view}" is not part of the page',
    'control.notFound': 'Control "{control}" is not part of the page',
    'record.notFound': 'The record does not exist or is outside your data scope',
    'record.conflict': 'This record was changed by {user} at {time}; reload it before saving',
    'field.required': '"{title}" is required',
    'field.maxLength': '"{title}" has at most {max} characters',
    'field.min': '"{title}" must be at least {min}',
    'field.max': '"{title}" must be at most {max}',
    'field.invalid': '"{title}": {message}',
    'value.decimals': 'at most {accuracy} decimal places',
    'field.notAnOption': '"{title}": {values} is not one of the options',
    'field.notALookupRow': '"{title}": {values} is not a record you may choose',
    'field.fileUnknown': '"{title}": the file does not exist or cannot be used',
    'date.outOfRange': 'Dates must be in the years 1 to 9999',
    'row.id': 'A row id must be a GUID',
    'row.duplicate': 'Row id "{id}" appears twice',
    'row.parent': "The row's parent record is not part of this save",
    'row.taken': 'A row id is already used by another record',
    'save.masterMissing': 'The record of master view "{view}" is missing',
    'save.oneMaster': 'One master record is saved at a time',
    'view.needsParent': 'A child view needs its parent record (parentId)',
    'view.notChild': 'Only rows of child views are deleted this way',
    'sort.unknown': 'Cannot sort by "{field}"',
    'lookup.noSource': 'Control "{control}" has no data source',
    'lookup.noParentField': 'The data source of control "{control}" has no parent field "{field}"',
    'docNo.noRule': 'Control "{control}" has no document-number rule',
    'import.empty': 'The file has no data rows',
    'import.masterRow': 'Master row',
    'import.sheet': 'Sheet "{sheet}" is not a child view of this page',
    'import.noMasterRowColumn': 'Sheet "{sheet}" has no "Master row" column',
    'import.badMasterRow': 'Master row "{value}" is not a data row of the master sheet',
    'import.parentRow': 'Parent row',
    'import.noParentRowColumn': 'Sheet "{sheet}" has no "Parent row" column',
    'import.badParentRow': 'Parent row "{value}" is not a data row of sheet "{sheet}"',
    'import.header': 'Column "{column}" is not a field of this view',
    'import.failed': 'Import failed: {count} errors, nothing was imported',
    'import.badFile': 'The Excel file cannot be read',
  },
} as const;

export type BizMessageKey = keyof (typeof texts)['zh-CN'];
export type Translate = ((key: BizMessageKey, params?: Record<string, string | number>) => string) & { readonly culture: Culture };
const messages = moduleMessages<BizMessageKey>(texts, 'business-data');

export const translator = (culture: Culture): Translate => messages.translator(culture);
export const requestTranslator = (who: TextAudience): Translate => messages.translator(who);

/** A problem text of the core (value parsing, filters) in the caller's language where the module has one. */
export function coreMessage(t: Translate, message: string): string {
  return message === DATE_OUT_OF_RANGE_MESSAGE ? t('date.outOfRange') : localizeCoreMessage(message, t.culture);
}

export function bizNotFound(t: Translate, key: BizMessageKey, params: Record<string, string | number> = {}, details: unknown = null) {
  return new AppError(404, 'NotFound', null, { message: t(key, params), details });
}

export function bizInvalid(t: Translate, errors: ValidationErrorItem[]) {
  return new AppError(400, 'ValidationError', null, { message: errors[0]?.message ?? t('field.invalid', { title: '', message: '' }), validationErrors: errors });
}
