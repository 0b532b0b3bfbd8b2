import type { TSysDictionary } from '@tessera/core/contracts/dictionaries';

type Entry = [code: string, zh: string, en: string, color?: string];

function dictionary(code: string, zh: string, en: string, entries: Entry[]): TSysDictionary {
  return {
    id: code,
    code,
    title: { 'zh-CN': zh, 'en-US': en },
    items: entries.map(([itemCode, itemZh, itemEn, color], order) => ({
      id: `${code}:${itemCode}`,
      code: itemCode,
      label: { 'zh-CN': itemZh, 'en-US': itemEn },
      parentCode: null,
      order,
      isEnabled: true,
      color: color ?? null,
    })),
  };
}

/**
 * Built-in, read-only dictionaries (spec §3, §9): values the product itself understands, so they
 * are code, not rows an administrator could break.
 */
export const SYS_DICTIONARIES: readonly TSysDictionary[] = [
  dictionary('Gender', '性别', 'Gender', [
    ['male', '男', 'Male', 'blue'],
    ['female', '女', 'Female', 'magenta'],
    ['unknown', '未知', 'Unknown', 'default'],
  ]),
  dictionary('YesNo', '是否', 'Yes / no', [
    ['true', '是', 'Yes', 'green'],
    ['false', '否', 'No', 'default'],
  ]),
  // spec §9: time units second, minute, hour, day.
  dictionary('TimeUnit', '时间单位', 'Time units', [
    ['second', '秒', 'Second'],
    ['minute', '分钟', 'Minute'],
    ['hour', '小时', 'Hour'],
    ['day', '天', 'Day'],
  ]),
  // spec §9: HTTP methods get, post, patch, put, delete.
  dictionary('HttpMethod', 'HTTP 方法', 'HTTP methods', [
    ['get', 'GET', 'GET', 'green'],
    ['post', 'POST', 'POST', 'blue'],
    ['patch', 'PATCH', 'PATCH', 'cyan'],
    ['put', 'PUT', 'PUT', 'orange'],
    ['delete', 'DELETE', 'DELETE', 'red'],
  ]),
  // spec §9: aggregate functions SUM, COUNT, MAX, MIN.
  dictionary('AggregateFunction', '聚合函数', 'Aggregate functions', [
    ['SUM', '求和', 'Sum'],
    ['COUNT', '计数', 'Count'],
    ['MAX', '最大值', 'Maximum'],
    ['MIN', '最小值', 'Minimum'],
  ]),
  // spec §4: dateType 1 year-month, 2 year-month-day, 3 full date and time.
  dictionary('DateType', '日期格式', 'Date types', [
    ['1', '年月', 'Year and month'],
    ['2', '年月日', 'Date'],
    ['3', '年月日 时分秒', 'Date and time'],
  ]),
  // spec §3: selection-item types.
  dictionary('SelectionItemType', '选择项类型', 'Selection item types', [
    ['1', '组织机构', 'Organisation unit'],
    ['3', '用户', 'User'],
    ['4', '角色', 'Role'],
  ]),
  // spec §3: table field type by control type.
  dictionary('TableFieldType', '字段类型', 'Table field types', [
    ['1', '文本', 'Text'],
    ['2', '整数', 'Integer'],
    ['3', '小数', 'Decimal'],
    ['4', '日期', 'Date'],
    ['5', '布尔', 'Boolean'],
    ['6', '标识', 'Identifier'],
  ]),
  // spec §3: data linkage types.
  dictionary('DataLinkType', '联动类型', 'Data linkage types', [
    ['1', '赋值', 'Assignment'],
    ['2', '页面状态', 'Page state'],
  ]),
  // spec §4: when a document number is fetched.
  dictionary('DocNoOccasion', '单据编号获取时机', 'Document-number occasion', [
    ['1', '新建记录时获取', 'When the record is created'],
    ['2', '保存时生成', 'When the record is saved'],
  ]),
  dictionary('ResetPeriod', '编号重置周期', 'Number reset periods', [
    ['never', '不重置', 'Never'],
    ['yearly', '每年', 'Yearly'],
    ['monthly', '每月', 'Monthly'],
    ['daily', '每天', 'Daily'],
  ]),
  dictionary('QrErrorCorrectionLevel', '二维码纠错级别', 'QR error correction', [
    ['L', '低 (7%)', 'Low (7%)'],
    ['M', '中 (15%)', 'Medium (15%)'],
    ['Q', '较高 (25%)', 'Quartile (25%)'],
    ['H', '高 (30%)', 'High (30%)'],
  ]),
];

const byCode = new Map(SYS_DICTIONARIES.map((d) => [d.code.toLowerCase(), d]));

export function findSysDictionary(code: string): TSysDictionary | undefined {
  return byCode.get(code.toLowerCase());
}
