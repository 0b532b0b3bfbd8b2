import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { FUNCTION_CATEGORIES, FUNCTION_DOCS, type FunctionDoc } from '@tessera/core/formula/function-docs';

/** A control the formula may refer to: `{code}` on its own view, `{view.code}` elsewhere. */
export interface FormulaReference {
  /** What goes between the braces: `amount` or `lines.amount`. */
  ref: string;
  title: string;
  /** Control type name for the detail column (`decimal`). */
  typeTitle?: string;
}

type Locale = 'zh-CN' | 'en-US';

function functionInfo(doc: FunctionDoc, locale: Locale): () => Node {
  return () => {
    const box = document.createElement('div');
    const sig = document.createElement('div');
    sig.style.fontFamily = 'ui-monospace, Menlo, Consolas, monospace';
    sig.style.fontWeight = '600';
    sig.textContent = doc.signature;
    const text = document.createElement('div');
    text.style.margin = '4px 0';
    text.textContent = locale === 'en-US' ? doc.en : doc.zh;
    const example = document.createElement('div');
    example.style.color = '#8c8c8c';
    example.textContent = `${doc.example} → ${doc.result}`;
    box.append(sig, text, example);
    return box;
  };
}

const categoryTitle = (category: string, locale: Locale) => {
  const c = FUNCTION_CATEGORIES.find((x) => x.category === category);
  return c ? (locale === 'en-US' ? c.en : c.zh) : category;
};

/**
 * Completion source: inside `{…}` the page's control references; elsewhere function names with
 * their signature and zh/en help (packages/core formula/function-docs.ts).
 */
export function formulaCompletions(getReferences: () => FormulaReference[], getLocale: () => Locale) {
  return (context: CompletionContext): CompletionResult | null => {
    const before = context.state.sliceDoc(Math.max(0, context.pos - 80), context.pos);
    const open = before.lastIndexOf('{');
    if (open >= 0 && before.indexOf('}', open) < 0) {
      const from = context.pos - (before.length - open - 1);
      const after = context.state.sliceDoc(context.pos, context.pos + 1);
      const options: Completion[] = getReferences().map((r) => ({
        label: r.ref,
        detail: r.title,
        info: r.typeTitle,
        type: 'variable',
        apply: after === '}' ? r.ref : `${r.ref}}`,
      }));
      return { from, options, validFor: /^[A-Za-z0-9_.\u4e00-\u9fff]*$/ };
    }
    const word = context.matchBefore(/[A-Za-z_][A-Za-z0-9_.]*/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    const locale = getLocale();
    const options: Completion[] = FUNCTION_DOCS.map((doc) => ({
      label: doc.name,
      detail: doc.signature.slice(doc.name.length),
      info: functionInfo(doc, locale),
      type: 'function',
      section: categoryTitle(doc.category, locale),
      apply: (view, _completion, from, to) => {
        const insert = `${doc.name}()`;
        view.dispatch({ changes: { from, to, insert }, selection: { anchor: from + insert.length - (doc.maxArgs > 0 ? 1 : 0) } });
      },
    }));
    options.push(
      { label: 'TRUE', type: 'constant' },
      { label: 'FALSE', type: 'constant' },
    );
    return { from: word.from, options, validFor: /^[A-Za-z0-9_.]*$/ };
  };
}
