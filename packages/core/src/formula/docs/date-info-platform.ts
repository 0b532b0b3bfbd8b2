import type { FunctionDocRow } from './doc-row.ts';

// Examples run against the documentation context (function-docs.test.ts): clock
// 2024-03-05T02:30:00Z at UTC+8, user 张三 (u-1) of 销售部 (o-1), dictionary gender 1 → 男.

export const DATE_DOCS: FunctionDocRow[] = [
  ['DATE', 'DATE(year, month, day)', '由年月日构造日期', 'Builds a date from year, month and day', 'DATE(2024, 1, 31)', '2024-01-31'],
  ['YEAR', 'YEAR(date)', '日期的年份', 'Year of a date', 'YEAR("2024-03-05")', '2024'],
  ['MONTH', 'MONTH(date)', '日期的月份', 'Month of a date', 'MONTH("2024-03-05")', '3'],
  ['DAY', 'DAY(date)', '日期的日', 'Day of the month', 'DAY("2024-03-05")', '5'],
  ['HOUR', 'HOUR(dateTime)', '时间中的小时数', 'Hour of a time', 'HOUR("2024-03-05 14:30:00")', '14'],
  ['MINUTE', 'MINUTE(dateTime)', '时间中的分钟数', 'Minute of a time', 'MINUTE("2024-03-05 14:30:00")', '30'],
  ['SECOND', 'SECOND(dateTime)', '时间中的秒数', 'Second of a time', 'SECOND("2024-03-05 14:30:15")', '15'],
  ['TIME', 'TIME(hour, minute, second)', '时间（一天的小数部分）', 'A time as a fraction of a day', 'TIME(12, 0, 0)', '0.5'],
  ['TODAY', 'TODAY()', '今天（取自服务器或页面提供的时钟）', 'Today, from the supplied clock', 'TODAY()', '2024-03-05'],
  ['NOW', 'NOW()', '当前日期时间（取自提供的时钟）', 'Current date and time, from the supplied clock', 'NOW()', '2024-03-05 10:30:00'],
  ['DATEDIF', 'DATEDIF(startDate, endDate, unit)', '两个日期之差，单位 "Y"、"M"、"D"、"MD"、"YM"、"YD"', 'Difference between dates in "Y", "M", "D", "MD", "YM" or "YD"', 'DATEDIF("2024-01-01", "2024-03-01", "D")', '60'],
  ['DAYS', 'DAYS(endDate, startDate)', '两个日期相差的天数', 'Days between two dates', 'DAYS("2024-03-01", "2024-01-01")', '60'],
  ['EDATE', 'EDATE(startDate, months)', '若干个月之前或之后的日期', 'The date a number of months before or after', 'EDATE("2024-01-31", 1)', '2024-02-29'],
  ['EOMONTH', 'EOMONTH(startDate, months)', '若干个月之前或之后的月末日期', 'Last day of the month a number of months away', 'EOMONTH("2024-01-15", 1)', '2024-02-29'],
  ['WEEKDAY', 'WEEKDAY(date, [returnType])', '星期几（默认星期日为 1）', 'Day of the week (Sunday is 1 by default)', 'WEEKDAY("2024-01-07")', '1'],
  ['WEEKNUM', 'WEEKNUM(date, [returnType])', '一年中的第几周', 'Week number in the year', 'WEEKNUM("2024-01-07")', '2'],
  ['ISOWEEKNUM', 'ISOWEEKNUM(date)', 'ISO 周数', 'ISO week number', 'ISOWEEKNUM("2024-01-07")', '1'],
  ['NETWORKDAYS', 'NETWORKDAYS(startDate, endDate, [holidays])', '两个日期之间的工作日数', 'Working days between two dates', 'NETWORKDAYS("2024-01-01", "2024-01-31")', '23'],
  ['WORKDAY', 'WORKDAY(startDate, days, [holidays])', '若干个工作日之后的日期', 'The date a number of working days away', 'WORKDAY("2024-01-05", 1)', '2024-01-08'],
  ['DATEVALUE', 'DATEVALUE(dateText)', '日期文本转为日期序列号', 'Serial number of a date text', 'DATEVALUE("2024-03-05")', '45356'],
  ['YEARFRAC', 'YEARFRAC(startDate, endDate, [basis])', '两个日期之间占一年的比例', 'Fraction of a year between two dates', 'YEARFRAC("2024-01-01", "2024-07-01")', '0.5'],
  ['DAYS360', 'DAYS360(startDate, endDate, [method])', '按一年 360 天计算的天数', 'Days between dates on a 360-day year', 'DAYS360("2024-01-01", "2024-12-31")', '360'],
];

export const INFORMATION_DOCS: FunctionDocRow[] = [
  ['ISBLANK', 'ISBLANK(value)', '值是否为空（空文本也算空）', 'Whether a value is blank (empty text counts as blank)', 'ISBLANK("")', 'TRUE'],
  ['ISNUMBER', 'ISNUMBER(value)', '是否为数字', 'Whether a value is a number', 'ISNUMBER(12)', 'TRUE'],
  ['ISTEXT', 'ISTEXT(value)', '是否为文本', 'Whether a value is text', 'ISTEXT("a")', 'TRUE'],
  ['ISNONTEXT', 'ISNONTEXT(value)', '是否不是文本', 'Whether a value is not text', 'ISNONTEXT(1)', 'TRUE'],
  ['ISLOGICAL', 'ISLOGICAL(value)', '是否为逻辑值', 'Whether a value is TRUE or FALSE', 'ISLOGICAL(TRUE)', 'TRUE'],
  ['ISERROR', 'ISERROR(value)', '是否为任意错误值', 'Whether a value is any error', 'ISERROR(1 / 0)', 'TRUE'],
  ['ISERR', 'ISERR(value)', '是否为 #N/A 以外的错误值', 'Whether a value is an error other than #N/A', 'ISERR(NA())', 'FALSE'],
  ['ISNA', 'ISNA(value)', '是否为 #N/A', 'Whether a value is #N/A', 'ISNA(NA())', 'TRUE'],
  ['ISEVEN', 'ISEVEN(number)', '是否为偶数', 'Whether a number is even', 'ISEVEN(4)', 'TRUE'],
  ['ISODD', 'ISODD(number)', '是否为奇数', 'Whether a number is odd', 'ISODD(4)', 'FALSE'],
  ['NA', 'NA()', '返回错误值 #N/A', 'Returns the error #N/A', 'NA()', '#N/A'],
  ['N', 'N(value)', '把值转为数字（文本为 0）', 'Converts a value to a number (text is 0)', 'N(TRUE)', '1'],
  ['TYPE', 'TYPE(value)', '值的类型：1 数字、2 文本、4 逻辑、16 错误、64 列表', 'Type of a value: 1 number, 2 text, 4 logical, 16 error, 64 list', 'TYPE("a")', '2'],
];

export const LOOKUP_DOCS: FunctionDocRow[] = [
  ['INDEX', 'INDEX(array, row, [column])', '列表中指定位置（从 1 开始）的值', 'The value at a 1-based position of a list', 'INDEX(LIST("a", "b", "c"), 2)', '"b"'],
  ['MATCH', 'MATCH(lookupValue, lookupArray, [matchType])', '值在列表中的位置（matchType 0 为精确匹配）', 'Position of a value in a list (matchType 0: exact)', 'MATCH("b", LIST("a", "b", "c"), 0)', '2'],
  ['LIST', 'LIST(value1, [value2], ...)', '由参数组成列表，供 SUM、MATCH 等使用', 'Makes a list of the arguments, for SUM, MATCH and others', 'LIST(1, 2, 3)', '[1, 2, 3]'],
];

export const FINANCIAL_DOCS: FunctionDocRow[] = [
  ['PMT', 'PMT(rate, nper, pv, [fv], [type])', '等额分期的每期付款额', 'Payment per period of a loan', 'ROUND(PMT(0.05 / 12, 60, 10000), 2)', '-188.71'],
  ['FV', 'FV(rate, nper, pmt, [pv], [type])', '投资的未来值', 'Future value of an investment', 'ROUND(FV(0.05 / 12, 12, -100), 2)', '1227.89'],
  ['PV', 'PV(rate, nper, pmt, [fv], [type])', '投资的现值', 'Present value of an investment', 'ROUND(PV(0.05 / 12, 12, -100), 2)', '1168.12'],
  ['NPV', 'NPV(rate, value1, [value2], ...)', '净现值', 'Net present value', 'ROUND(NPV(0.1, -1000, 500, 600), 2)', '-45.08'],
  ['NPER', 'NPER(rate, pmt, pv, [fv], [type])', '付款期数', 'Number of payment periods', 'ROUND(NPER(0.01, -100, 1000), 2)', '10.59'],
  ['RATE', 'RATE(nper, pmt, pv, [fv], [type], [guess])', '每期利率', 'Interest rate per period', 'ROUND(RATE(12, -100, 1000), 4)', '0.0292'],
  ['IPMT', 'IPMT(rate, per, nper, pv, [fv], [type])', '某期付款中的利息', 'Interest part of a payment', 'ROUND(IPMT(0.01, 1, 12, 1000), 2)', '-10'],
  ['PPMT', 'PPMT(rate, per, nper, pv, [fv], [type])', '某期付款中的本金', 'Principal part of a payment', 'ROUND(PPMT(0.01, 1, 12, 1000), 2)', '-78.85'],
  ['IRR', 'IRR(values, [guess])', '内部收益率', 'Internal rate of return', 'ROUND(IRR(LIST(-1000, 300, 400, 500)), 4)', '0.089'],
  ['SLN', 'SLN(cost, salvage, life)', '直线法折旧额', 'Straight-line depreciation', 'SLN(10000, 1000, 5)', '1800'],
];

export const PLATFORM_DOCS: FunctionDocRow[] = [
  ['RMB', 'RMB(amount)', '金额转人民币大写（保留两位小数；非数字或 ≥1e16 时为空）', 'Amount in Chinese capitals (2 decimals; empty for non-numbers or ≥ 1e16)', 'RMB(1234.56)', '"壹仟贰佰叁拾肆元伍角陆分"'],
  ['GUID', 'GUID()', '生成一个新的 GUID', 'A new GUID', 'LEN(GUID())', '36'],
  ['CURRENT_USER', 'CURRENT_USER()', '当前用户姓名', 'Name of the current user', 'CURRENT_USER()', '"张三"'],
  ['CURRENT_USER_ID', 'CURRENT_USER_ID()', '当前用户 ID', 'Id of the current user', 'CURRENT_USER_ID()', '"u-1"'],
  ['CURRENT_ORG', 'CURRENT_ORG()', '当前用户所属组织名称', "Name of the current user's organisation unit", 'CURRENT_ORG()', '"销售部"'],
  ['CURRENT_ORG_ID', 'CURRENT_ORG_ID()', '当前用户所属组织 ID', "Id of the current user's organisation unit", 'CURRENT_ORG_ID()', '"o-1"'],
  ['DICT', 'DICT(dictionaryCode, value)', '业务字典中某个值的显示名称，找不到时返回 #N/A', 'Label of a value in a business dictionary; #N/A when not found', 'DICT("gender", "1")', '"男"'],
];
