import { moduleMessages } from '../../platform/module-messages.ts';

/** The print templates module's server texts in the two complete cultures. */
const texts = {
  'zh-CN': {
    'template.notFound': '打印模板不存在',
    'template.pageMissing': '绑定的页面不存在',
    'template.pageNotPublished': '绑定的页面“{page}”尚未发布，请先发布页面',
    'template.copyName': '{name} - 副本',
    'template.enableNeedsPublish': '打印模板发布后才能启用',
    'template.versionNotFound': '版本 {version} 不存在',
    'template.unknownField': '元素“{element}”绑定的字段“{field}”不在页面的主视图中',
    'template.unknownView': '表格“{element}”绑定的子视图“{view}”不在页面中',
    'template.unknownColumn': '表格“{element}”的列“{field}”不在子视图“{view}”中',
    'template.formulaInvalid': '元素“{element}”的公式有误：{error}',
    'template.imageUnreadable': '图片“{element}”无法读取（需要完整的 PNG 或 JPEG 文件）',
    'import.pageUnresolved': '找不到导入文件绑定的页面（编码“{code}”），请指定要绑定的页面',
    'print.notPrintable': '此打印模板未发布或未启用',
    'print.noPermission': '没有使用此打印模板的权限',
    'print.notApproved': '只能打印审批通过的记录：{records}',
    'print.failed': '打印文件生成失败：{reason}',
    'print.fileName': '打印',
  },
  'en-US': {
    'template.notFound': 'The print template does not exist',
    'template.pageMissing': 'The bound page does not exist',
    'template.pageNotPublished': 'The bound page "{page}" has not been published; publish the page first',
    'template.copyName': '{name} - copy',
    'template.enableNeedsPublish': 'Publish the print template before enabling it',
    'template.versionNotFound': 'Version {version} does not exist',
    'template.unknownField': 'Element "{element}" is bound to field "{field}", which the page\'s main view does not have',
    'template.unknownView': 'Table "{element}" is bound to child view "{view}", which the page does not have',
    'template.unknownColumn': 'Column "{field}" of table "{element}" is not in child view "{view}"',
    'template.formulaInvalid': 'The formula of element "{element}" is wrong: {error}',
    'template.imageUnreadable': 'Image "{element}" cannot be read (it must be a whole PNG or JPEG file)',
    'import.pageUnresolved': 'The page the imported file is bound to (code "{code}") does not exist here; choose the page to bind',
    'print.notPrintable': 'This print template is not published or not enabled',
    'print.noPermission': 'You may not print with this template',
    'print.notApproved': 'Only approved records may be printed: {records}',
    'print.failed': 'The PDF could not be made: {reason}',
    'print.fileName': 'print',
  },
};

export type PrintTextKey = keyof (typeof texts)['zh-CN'];
const messages = moduleMessages<PrintTextKey>(texts, 'print-templates');

export const printText = messages.text;
export const printError = messages.error;
export const printInvalid = messages.invalid;
