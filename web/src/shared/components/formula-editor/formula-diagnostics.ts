import { compileFormula, type FormulaSchema } from '@tessera/core/formula/index';

/** A problem in a formula's text, positioned for underlining (0-based offsets, end exclusive). */
export interface FormulaProblem {
  start: number;
  end: number;
  message: string;
}

/** The core compiler's messages (English) in Chinese, by pattern; unknown ones stay as they are. */
const ZH: [RegExp, (...m: string[]) => string][] = [
  [/^A closing \) is missing for (.+)\($/, (f) => `${f}( 缺少右括号 )`],
  [/^A closing \) is missing$/, () => '缺少右括号 )'],
  [/^The formula ends too early$/, () => '公式不完整'],
  [/^The formula is empty$/, () => '公式为空'],
  [/^Unterminated reference: a closing \} is missing$/, () => '引用缺少右花括号 }'],
  [/^Unterminated text: a closing " is missing$/, () => '文本缺少右引号 "'],
  [/^Invalid reference \{(.*)\}: use \{code\} or \{view\.code\}$/, (r) => `引用 {${r}} 无效：请用 {控件编码} 或 {视图编码.控件编码}`],
  [/^Number out of range: (.+)$/, (n) => `数字超出范围：${n}`],
  [/^Unexpected "(.*)"$/, (x) => `此处不应出现“${x}”`],
  [/^Unexpected character "(.*)"$/, (x) => `无效字符“${x}”`],
  [/^Unknown reference (.+)$/, (r) => `没有这个控件：${r}`],
  [/^Unknown function (.+)$/, (f) => `没有这个函数：${f}`],
  [/^Unknown name (.+)$/, (f) => `未知名称：${f}（引用控件请写成 {${f}}）`],
  [/^(\S+) expects (.+) arguments?.*$/, (f, n) => `${f} 需要 ${n} 个参数`],
  [/^The formula is nested too deeply.*$/, () => '公式嵌套层数过多'],
  [/^The formula is too (large|long).*$/, () => '公式过长'],
];

export function localizeFormulaMessage(message: string, locale: string): string {
  if (locale === 'en-US') return message;
  for (const [re, fn] of ZH) {
    const m = re.exec(message);
    if (m) return fn(...m.slice(1));
  }
  return message;
}

/**
 * The core compiler's errors for `source`: syntax, unknown functions, argument counts and, with a
 * schema, unknown references. Empty text is no error (formula fields are optional).
 */
export function diagnoseFormula(source: string, schema?: FormulaSchema, locale = 'en-US'): FormulaProblem[] {
  if (!source.trim()) return [];
  const compiled = compileFormula(source, { schema });
  return compiled.errors.map((e) => ({ start: e.start, end: e.end, message: localizeFormulaMessage(e.message, locale) }));
}
