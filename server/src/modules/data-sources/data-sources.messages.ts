import { moduleMessages } from '../../platform/module-messages.ts';

/** The data sources module's server texts in the two complete cultures. */
const texts = {
  'zh-CN': {
    'source.notFound': '数据源不存在',
    'source.unreadablePassword': '无法解密已保存的密码（密钥已更换？），请重新输入密码',
    'source.unavailable': '无法连接数据源“{name}”：{reason}',
    'source.timeout': '数据源“{name}”在 {seconds} 秒内没有完成查询：{reason}',
    'source.queryFailed': '查询出错：{reason}',
    'source.readOnly': '数据源“{name}”是只读的，只能执行查询（SELECT、WITH、SHOW、EXPLAIN 等）',
    'source.oneStatement': '一次只能执行一条语句',
    'source.missingParameters': '缺少参数：{names}',
    'source.notSql': '数据源“{name}”是 HTTP 数据源，不能执行 SQL 或浏览表',
    'source.notHttp': '数据源“{name}”是数据库，请用 SQL 查询它',
    'source.httpReadOnly': '数据源“{name}”是只读的，只能发送 GET 或 HEAD 请求（不能发送 {method}）',
    'source.httpTimeout': '数据源“{name}”在 {ms} 毫秒内没有回答',
    'source.badResponse': '数据源“{name}”的回答无法使用：{reason}',
    'http.outsideBase': '请求地址 {path} 不在数据源的基础地址之下',
    'http.badBody': '请求体填入参数后不是有效的 JSON：{reason}',
    'http.badPath': '行路径“{path}”无效：可用 $、.键、[\'键\']、[n] 和 [*]',
    'http.badHeader': '请求头无效：{reason}',
    'method.requestMissing': 'HTTP 数据源的查询需要一个请求（方法、路径……），而不是 SQL',
    'method.sqlMissing': '数据库的查询需要 SQL',
    'method.notFound': '保存的查询不存在',
    'method.codeTaken': '编码“{code}”已被这个数据源的另一个查询使用',
    'method.parameterTwice': '参数 :{name} 声明了两次',
    'method.parameterUndeclared': 'SQL 或请求中的参数没有声明：{names}',
    'method.parameterUnused': '声明的参数没有在 SQL 或请求中使用：{names}',
    'method.parameterRequired': '参数 :{name} 必须给出',
    'method.parameterType': '参数 :{name} 的值不是{type}类型',
    'method.missing': '数据源“{name}”中没有编码为“{code}”的查询',
    'method.notRows': '查询“{code}”不是返回数据行的查询（SELECT 或 WITH；HTTP 数据源：GET 请求）',
    'method.unknownColumn': '查询“{code}”的结果中没有列“{column}”',
  },
  'en-US': {
    'source.notFound': 'The data source does not exist',
    'source.unreadablePassword': 'The saved password cannot be decrypted (was the key changed?); enter the password again',
    'source.unavailable': 'Cannot connect to data source "{name}": {reason}',
    'source.timeout': 'Data source "{name}" did not finish the query within {seconds} s: {reason}',
    'source.queryFailed': 'The query failed: {reason}',
    'source.readOnly': 'Data source "{name}" is read-only: only queries run on it (SELECT, WITH, SHOW, EXPLAIN…)',
    'source.oneStatement': 'Run one statement at a time',
    'source.missingParameters': 'Parameters without a value: {names}',
    'source.notSql': 'Data source "{name}" is an HTTP source: it runs no SQL and has no tables',
    'source.notHttp': 'Data source "{name}" is a database: query it with SQL',
    'source.httpReadOnly': 'Data source "{name}" is read-only: it sends GET or HEAD requests only (not {method})',
    'source.httpTimeout': 'Data source "{name}" did not answer within {ms} ms',
    'source.badResponse': 'The answer of data source "{name}" cannot be used: {reason}',
    'http.outsideBase': 'The request path {path} is not under the data source\'s base URL',
    'http.badBody': 'The body is not valid JSON with the parameters filled in: {reason}',
    'http.badPath': 'The rows path "{path}" is not valid: use $, .key, [\'key\'], [n] and [*]',
    'http.badHeader': 'A header is not valid: {reason}',
    'method.requestMissing': 'A query of an HTTP source needs a request (method, path…), not SQL',
    'method.sqlMissing': 'A query of a database needs SQL',
    'method.notFound': 'The saved query does not exist',
    'method.codeTaken': 'Code "{code}" is used by another query of this data source',
    'method.parameterTwice': 'Parameter :{name} is declared twice',
    'method.parameterUndeclared': 'Parameters the SQL or request uses are not declared: {names}',
    'method.parameterUnused': 'Declared parameters the SQL or request does not use: {names}',
    'method.parameterRequired': 'Parameter :{name} must be given',
    'method.parameterType': 'The value of parameter :{name} is not of type {type}',
    'method.missing': 'Data source "{name}" has no query with code "{code}"',
    'method.notRows': 'Query "{code}" does not return rows (SELECT or WITH; an HTTP source: a GET request)',
    'method.unknownColumn': 'The result of query "{code}" has no column "{column}"',
  },
};

export type DataSourceTextKey = keyof (typeof texts)['zh-CN'];
const messages = moduleMessages<DataSourceTextKey>(texts, 'data-sources');

export const sourceText = messages.text;
export const sourceError = messages.error;
export const sourceInvalid = messages.invalid;
