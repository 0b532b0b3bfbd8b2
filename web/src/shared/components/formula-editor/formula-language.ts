import { RangeSetBuilder } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view';

// Highlighting for the formula language of packages/core/src/formula (tokenizer.ts): numbers,
// "text" with "" escapes, {code} / {view.code} references, function names, operators, TRUE/FALSE.
// Tokens are marked with classes whose colours come from CSS variables (--fe-*) that FormulaEditor
// sets from the antd theme, so light and dark themes both read well.

type TokenClass = 'ref' | 'num' | 'str' | 'fn' | 'name' | 'bool' | 'op' | 'bad';

const marks: Record<TokenClass, Decoration> = {
  ref: Decoration.mark({ class: 'cm-formula-ref' }),
  num: Decoration.mark({ class: 'cm-formula-num' }),
  str: Decoration.mark({ class: 'cm-formula-str' }),
  fn: Decoration.mark({ class: 'cm-formula-fn' }),
  name: Decoration.mark({ class: 'cm-formula-name' }),
  bool: Decoration.mark({ class: 'cm-formula-bool' }),
  op: Decoration.mark({ class: 'cm-formula-op' }),
  bad: Decoration.mark({ class: 'cm-formula-bad' }),
};

/** Splits formula text into highlighted ranges (lenient: unfinished strings and references run to the end). */
export function formulaTokens(text: string): { from: number; to: number; cls: TokenClass }[] {
  const out: { from: number; to: number; cls: TokenClass }[] = [];
  let i = 0;
  const rules: [RegExp, TokenClass | null][] = [
    [/^\s+/, null],
    [/^"(?:[^"]|"")*"?/, 'str'],
    [/^\{[^}]*\}?/, 'ref'],
    [/^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?%?/, 'num'],
    [/^(TRUE|FALSE)(?![A-Za-z0-9_.])/i, 'bool'],
    [/^[A-Za-z_\u4e00-\u9fff][A-Za-z0-9_.\u4e00-\u9fff]*/, 'name'],
    [/^(<>|<=|>=|[-+*/^&=<>%])/, 'op'],
    [/^[()（）,，]/, null],
  ];
  while (i < text.length) {
    const rest = text.slice(i);
    let matched = false;
    for (const [re, cls] of rules) {
      const m = re.exec(rest);
      if (!m || !m[0]) continue;
      let kind = cls;
      if (kind === 'name' && /^\s*[(（]/.test(text.slice(i + m[0].length))) kind = 'fn';
      if (kind) out.push({ from: i, to: i + m[0].length, cls: kind });
      i += m[0].length;
      matched = true;
      break;
    }
    if (!matched) {
      out.push({ from: i, to: i + 1, cls: 'bad' });
      i++;
    }
  }
  return out;
}

function decorate(view: EditorView): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  for (const t of formulaTokens(view.state.doc.toString())) builder.add(t.from, t.to, marks[t.cls]);
  return builder.finish();
}

const highlighter = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = decorate(view);
    }
    update(update: ViewUpdate) {
      if (update.docChanged) this.decorations = decorate(update.view);
    }
  },
  { decorations: (v) => v.decorations },
);

const theme = EditorView.baseTheme({
  '&': { fontSize: '13px', border: '1px solid var(--fe-border, #d9d9d9)', borderRadius: '6px', background: 'var(--fe-bg, #fff)', color: 'var(--fe-text, inherit)' },
  '&.cm-focused': { outline: 'none', borderColor: 'var(--fe-primary, #4096ff)', boxShadow: '0 0 0 2px var(--fe-primary-bg, rgba(5,145,255,0.1))' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', padding: '6px 0', caretColor: 'var(--fe-text, #000)' },
  '.cm-cursor': { borderLeftColor: 'var(--fe-text, #000)' },
  '.cm-formula-ref': { background: 'var(--fe-ref-bg, #e6f4ff)', color: 'var(--fe-ref, #0958d9)', borderRadius: '3px', padding: '0 1px' },
  '.cm-formula-num': { color: 'var(--fe-num, #389e0d)' },
  '.cm-formula-str': { color: 'var(--fe-str, #c41d7f)' },
  '.cm-formula-fn': { color: 'var(--fe-fn, #722ed1)', fontWeight: '600' },
  '.cm-formula-name': { color: 'var(--fe-text, inherit)' },
  '.cm-formula-bool': { color: 'var(--fe-num, #389e0d)', fontWeight: '600' },
  '.cm-formula-op': { color: 'var(--fe-op, #d46b08)' },
  '.cm-formula-bad': { color: 'var(--fe-error, #ff4d4f)' },
  '.cm-placeholder': { color: 'var(--fe-placeholder, #bfbfbf)' },
  '.cm-tooltip': { background: 'var(--fe-elevated, #fff)', color: 'var(--fe-text, inherit)', border: '1px solid var(--fe-border, #d9d9d9)' },
  // CodeMirror's own light theme paints tooltips #f5f5f5 with a more specific rule: this one outranks it in the dark theme too.
  '&.cm-editor .cm-tooltip.cm-tooltip-autocomplete': { background: 'var(--fe-elevated, #fff)', color: 'var(--fe-text, inherit)' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': { background: 'var(--fe-primary, #1677ff)', color: '#fff' },
  '.cm-completionDetail': { opacity: '0.75', marginLeft: '8px' },
  '.cm-completionInfo': { maxWidth: '360px', whiteSpace: 'pre-wrap', padding: '6px 8px' },
  '.cm-lintRange-error': { backgroundImage: 'none', textDecoration: 'underline wavy var(--fe-error, #ff4d4f)', textUnderlineOffset: '3px' },
});

export function formulaLanguage() {
  return [highlighter, theme];
}
