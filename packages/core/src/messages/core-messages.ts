/**
 * The texts the core produces in English (value parsing, filters, page limits, the contracts' own
 * rules) and their Chinese, for the server to answer in the caller's language. The core keeps
 * English as its working language (its tests and the logs read it); `localizeCoreMessage` turns a
 * message into the caller's culture by matching it against these templates, whose `{name}` parts
 * stand for the values the message quotes.
 *
 * A message the core adds must be listed here: a test scans the catalogue for missing or
 * untranslated Chinese (server/test/message-catalogue.test.ts).
 */
import { MAX_INPUT_DEPTH } from '../contracts/text.ts';

export interface CoreMessage {
  readonly en: string;
  readonly zh: string;
}

export const CORE_MESSAGES: readonly CoreMessage[] = [
  // Value parsing (controls) and filter values.
  { en: 'Expected text', zh: '应为文本' },
  { en: 'Expected a whole number', zh: '应为整数' },
  { en: 'Expected a number', zh: '应为数字' },
  { en: 'Expected true or false', zh: '应为“是”或“否”（true / false）' },
  { en: 'Expected a list of values', zh: '应为值的列表' },
  { en: 'Expected an id', zh: '应为标识（ID）' },
  { en: 'Expected a list of selection items', zh: '应为选择项的列表' },
  { en: 'Expected a list of files', zh: '应为文件的列表' },
  { en: 'Expected a JSON list of files', zh: '应为文件列表（JSON）' },
  { en: 'Too many files', zh: '文件数量超过上限' },
  { en: 'File extensions such as .pdf, .docx separated by commas', zh: '应为以逗号分隔的文件扩展名，如 .pdf, .docx' },
  { en: 'Expected text of at most {max} characters', zh: '应为不超过 {max} 个字符的文本' },
  { en: 'Invalid ISO 8601 date format', zh: '日期格式不正确，应为 ISO 8601 格式（如 2024-03-05 或 2024-03-05T08:30）' },
  { en: 'Dates must be in the years 1 to 9999', zh: '日期须在公元 1 年至 9999 年之间' },
  { en: 'text must not contain NUL (U+0000) or unpaired surrogates', zh: '文本不能包含空字符（U+0000）或不成对的代理项' },
  { en: `nested more than ${MAX_INPUT_DEPTH} levels deep`, zh: `内容嵌套超过 ${MAX_INPUT_DEPTH} 层` },
  { en: 'Unknown field type', zh: '未知的字段类型' },
  // Filters: conditions, brackets, operators.
  { en: 'Unknown field "{field}"', zh: '未知字段“{field}”' },
  { en: 'Unknown operator "{operator}"', zh: '未知运算符“{operator}”' },
  { en: 'Operator "{operator}" cannot be used with field "{field}"', zh: '运算符“{operator}”不能用于字段“{field}”' },
  { en: 'Operator "{operator}" takes {count} value(s)', zh: '运算符“{operator}”需要 {count} 个值' },
  { en: 'A clock is needed for date shortcuts', zh: '日期快捷条件需要服务器时钟' },
  { en: 'Between needs two values', zh: '“介于”需要两个值' },
  { en: 'Give between 1 and {max} values', zh: '请给出 1 至 {max} 个值' },
  { en: 'Conditions must be a list', zh: '条件必须是列表' },
  { en: 'At most {max} conditions', zh: '最多 {max} 个条件' },
  { en: 'Each condition must be an object', zh: '每个条件必须是对象' },
  { en: 'Invalid left bracket', zh: '左括号不正确' },
  { en: 'Invalid right bracket', zh: '右括号不正确' },
  { en: 'Link condition must be AND or OR', zh: '连接条件必须是 AND 或 OR' },
  { en: 'At most {max} values in all conditions together', zh: '所有条件合计最多 {max} 个值' },
  { en: 'A condition is missing at the end', zh: '末尾缺少一个条件' },
  { en: 'Brackets are nested too deeply', zh: '括号嵌套过深' },
  { en: 'Brackets are not balanced: a ) is missing', zh: '括号不匹配：缺少一个“)”' },
  { en: 'Brackets are not balanced: an extra )', zh: '括号不匹配：多了一个“)”' },
  { en: 'Unexpected {token}: brackets are not balanced', zh: '意外的“{token}”：括号不匹配' },
  { en: 'At most {max} nodes', zh: '最多 {max} 个节点' },
  { en: 'Conditions are nested too deeply', zh: '条件嵌套过深' },
  { en: 'Expected a condition or a group', zh: '应为条件或条件组' },
  { en: 'A group needs a list of children', zh: '条件组需要子条件列表' },
  { en: 'Field "{field}" has field type {type}', zh: '字段“{field}”的字段类型是 {type}' },
  { en: 'Operands must be a list', zh: '操作数必须是列表' },
  // Page definitions and the contracts' own rules.
  { en: 'at most {max} views on a page', zh: '一个页面最多 {max} 个视图' },
  { en: 'at most {max} controls on a page', zh: '一个页面最多 {max} 个控件' },
  { en: 'Codes use letters, digits and underscore', zh: '编码只能使用字母、数字和下划线' },
  { en: 'Reserved code', zh: '这是保留编码' },
  { en: 'a reserved system column name', zh: '这是保留的系统列名' },
  { en: 'letters, digits, - and _ (at most 64)', zh: '只能使用字母、数字、- 和 _（最多 64 个）' },
  { en: 'a view id must be a UUID', zh: '视图标识必须是 UUID' },
  { en: 'lower-case letters, digits, dots, dashes, underscores', zh: '只能使用小写字母、数字、点、短横线和下划线' },
  { en: 'an icon name like AppstoreOutlined', zh: '应为图标名称，如 AppstoreOutlined' },
  { en: 'At most 100 kB', zh: '最多 100 kB' },
  { en: 'letters, digits and _ . - : / (at most 64)', zh: '只能使用字母、数字和 _ . - : /（最多 64 个）' },
  { en: 'a colour name (blue, green…) or #rrggbb', zh: '应为颜色名称（blue、green…）或 #rrggbb' },
  { en: 'a letter, then letters, digits, _ . - (at most 64)', zh: '以字母开头，其后为字母、数字或 _ . -（最多 64 个）' },
  { en: 'action names separated by commas', zh: '以逗号分隔的操作名称' },
  { en: 'an in-app path starting with a single /', zh: '应为以单个“/”开头的站内路径' },
  { en: 'give either userIds or allUsers', zh: '请指定接收人（userIds）或全部用户（allUsers）之一' },
  { en: 'no control characters', zh: '不能包含控制字符' },
  { en: 'date tokens yyyy yy MM dd HH mm ss and - / . _ space', zh: '只能使用日期占位符 yyyy yy MM dd HH mm ss 以及 - / . _ 和空格' },
  { en: 'a control code', zh: '应为控件编码' },
  { en: 'culture like zh-CN or en-US', zh: '应为语言代码，如 zh-CN 或 en-US' },
  { en: 'at least one language needs a text', zh: '至少填写一种语言的文本' },
  { en: 'at most 20 languages', zh: '最多 20 种语言' },
  { en: 'a code like Biz.Page.Action', zh: '应为形如 Biz.Page.Action 的编码' },
  { en: 'letters, digits and _ , starting with a letter', zh: '以字母开头，只能使用字母、数字和 _' },
  { en: 'a field code', zh: '应为字段编码' },
  { en: 'an operator such as eq, contains, in, between', zh: '应为运算符，如 eq、contains、in、between' },
  { en: 'only ( characters', zh: '只能是“(”' },
  { en: 'only ) characters', zh: '只能是“)”' },
  { en: 'a page code or id', zh: '应为页面编码或标识' },
  { en: 'a data:image URL or a link', zh: '应为 data:image 地址或链接' },
  { en: 'digits, spaces, + - ( )', zh: '只能使用数字、空格和 + - ( )' },
  { en: 'an e-mail address', zh: '应为电子邮箱地址' },
  { en: 'no commas or semicolons', zh: '不能包含逗号或分号' },
  { en: 'a colour #rrggbb or empty', zh: '应为颜色 #rrggbb，或留空' },
  { en: 'a PNG or JPEG data URL', zh: '应为 PNG 或 JPEG 图片（data URL）' },
  { en: 'element ids are unique', zh: '元素标识不能重复' },
  { en: 'a permission code', zh: '应为权限编码' },
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface CompiledMessage {
  readonly pattern: RegExp;
  readonly names: string[];
  readonly zh: string;
}

function compile(m: CoreMessage): CompiledMessage {
  const names: string[] = [];
  const source = m.en
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (!name) return escape(part);
      names.push(name);
      return '([\\s\\S]*?)';
    })
    .join('');
  return { pattern: new RegExp(`^${source}$`), names, zh: m.zh };
}

let compiled: CompiledMessage[] | null = null;

/** True for the Chinese cultures (zh-CN, zh-Hant, zh…), which get the Chinese texts. */
const isChinese = (culture: string) => /^zh\b/i.test(culture.trim());

/**
 * The message in the caller's culture: the Chinese of a catalogue message for a Chinese culture
 * (the quoted values kept), else the message as it is (English, or a text that is no core message).
 */
export function localizeCoreMessage(message: string, culture: string): string {
  if (!isChinese(culture)) return message;
  compiled ??= CORE_MESSAGES.map(compile);
  for (const m of compiled) {
    const match = m.pattern.exec(message);
    if (!match) continue;
    const values = new Map(m.names.map((name, i) => [name, match[i + 1] ?? '']));
    return m.zh.replace(/\{(\w+)\}/g, (_, name: string) => values.get(name) ?? '');
  }
  return message;
}
