import { autocompletion } from '@codemirror/autocomplete';
import { linter, type Diagnostic } from '@codemirror/lint';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, placeholder as placeholderExt } from '@codemirror/view';
import { Button, theme, Typography } from 'antd';
import { ExperimentOutlined } from '@ant-design/icons';
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { formulaCompletions, type FormulaReference } from './formula-completions.ts';
import type { FormulaSchema } from '@tessera/core/formula/index';
import { diagnoseFormula, type FormulaProblem } from './formula-diagnostics.ts';
import { formulaLanguage } from './formula-language.ts';
import { FormulaTestPanel } from './FormulaTestPanel.tsx';
import './formula-texts.ts';

export type { FormulaReference } from './formula-completions.ts';
export type { FormulaProblem } from './formula-diagnostics.ts';

export interface FormulaEditorProps {
  value?: string | null;
  onChange?(value: string): void;
  /** Controls offered after `{` (autocomplete). */
  references?: FormulaReference[];
  /** What `{code}` / `{view.code}` may name; unknown references are errors when given. */
  schema?: FormulaSchema;
  /** Extra checks after the compiler's; positioned problems are underlined. */
  diagnose?(source: string): FormulaProblem[];
  placeholder?: string;
  readOnly?: boolean;
  minHeight?: number;
  id?: string;
  'aria-label'?: string;
  /** Shows the first problem's message under the editor (default true). */
  showMessage?: boolean;
  /** Offers a "test" toggle opening the test panel (sample values → result) under the editor. */
  testable?: boolean;
}

/**
 * The formula editor (CodeMirror 6): highlighting, autocomplete of `{control}` references and
 * function names with help, errors underlined as you type from the core compiler.
 */
export function FormulaEditor({ value, onChange, references = [], schema, diagnose, placeholder, readOnly, minHeight = 32, id, showMessage = true, testable = false, ...rest }: FormulaEditorProps) {
  const { i18n } = useTranslation();
  const { t } = useTranslation('formulaEditor');
  const [testing, setTesting] = useState(false);
  const { token } = theme.useToken();
  const dark = token.colorBgContainer !== '#ffffff' && token.colorBgContainer.toLowerCase() !== '#fff';
  const colours = {
    '--fe-bg': token.colorBgContainer,
    '--fe-elevated': token.colorBgElevated,
    '--fe-border': token.colorBorder,
    '--fe-text': token.colorText,
    '--fe-placeholder': token.colorTextPlaceholder,
    '--fe-primary': token.colorPrimary,
    '--fe-primary-bg': token.colorPrimaryBg,
    '--fe-ref-bg': token.colorPrimaryBg,
    '--fe-ref': token.colorPrimaryText,
    '--fe-error': token.colorError,
    '--fe-num': dark ? '#95de64' : '#389e0d',
    '--fe-str': dark ? '#ff85c0' : '#c41d7f',
    '--fe-fn': dark ? '#b37feb' : '#722ed1',
    '--fe-op': dark ? '#ffc069' : '#d46b08',
  } as CSSProperties;
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ onChange, references, schema, diagnose, locale: i18n.language });
  latest.current = { onChange, references, schema, diagnose, locale: i18n.language };
  const compartments = useRef({ readOnly: new Compartment(), placeholder: new Compartment() });
  const [problems, setProblems] = useState<FormulaProblem[]>(() => check(value ?? '', schema, diagnose, i18n.language));

  useEffect(() => {
    const c = compartments.current;
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value ?? '',
        extensions: [
          formulaLanguage(),
          EditorView.lineWrapping,
          EditorView.theme({ '.cm-content, .cm-gutter': { minHeight: `${minHeight}px` } }),
          EditorView.contentAttributes.of({ 'aria-label': rest['aria-label'] ?? 'formula', ...(id ? { id } : {}), 'data-formula-editor': 'true' }),
          c.readOnly.of([EditorState.readOnly.of(Boolean(readOnly)), EditorView.editable.of(!readOnly)]),
          c.placeholder.of(placeholder ? placeholderExt(placeholder) : []),
          autocompletion({
            override: [formulaCompletions(() => latest.current.references, () => (latest.current.locale === 'en-US' ? 'en-US' : 'zh-CN'))],
            activateOnTyping: true,
            // Formulas are short and typed deliberately: Enter takes the highlighted completion at once.
            interactionDelay: 0,
            icons: false,
          }),
          linter(
            (v): Diagnostic[] => {
              const source = v.state.doc.toString();
              const found = check(source, latest.current.schema, latest.current.diagnose, latest.current.locale);
              setProblems(found);
              const length = source.length;
              return found.map((p) => ({
                from: Math.min(p.start, length),
                to: Math.min(Math.max(p.end, p.start + 1), length),
                severity: 'error',
                message: p.message,
              }));
            },
            { delay: 150 },
          ),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange?.(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is created once; later prop changes go through compartments and refs.
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  // Outside changes (undo in the designer, another linkage selected) replace the text.
  useEffect(() => {
    const editor = view.current;
    const next = value ?? '';
    if (editor && editor.state.doc.toString() !== next) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: next } });
      setProblems(check(next, latest.current.schema, latest.current.diagnose, latest.current.locale));
    }
  }, [value]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const c = compartments.current;
    editor.dispatch({
      effects: [
        c.readOnly.reconfigure([EditorState.readOnly.of(Boolean(readOnly)), EditorView.editable.of(!readOnly)]),
        c.placeholder.reconfigure(placeholder ? placeholderExt(placeholder) : []),
      ],
    });
  }, [readOnly, placeholder]);

  return (
    <div className="tessera-formula-editor" style={colours}>
      <div ref={host} />
      {showMessage && problems[0] && (
        <Typography.Text type="danger" style={{ fontSize: 12 }} role="alert" data-formula-error>
          {problems[0].message}
        </Typography.Text>
      )}
      {testable && (
        <div>
          <Button type="link" size="small" icon={<ExperimentOutlined />} style={{ padding: 0 }} onClick={() => setTesting((v) => !v)} aria-expanded={testing}>
            {t('test')}
          </Button>
          {testing && (
            <div className="tessera-formula-test" style={{ marginTop: 4, padding: 8, border: "1px dashed var(--fe-border)", borderRadius: 6 }}>
              <FormulaTestPanel source={value ?? ''} schema={schema} />
            </div>
          )}
        </div>
      )}
    </div>
  );
}

function check(source: string, schema: FormulaSchema | undefined, extra: ((s: string) => FormulaProblem[]) | undefined, locale: string): FormulaProblem[] {
  const found = diagnoseFormula(source, schema, locale);
  return found.length ? found : (extra?.(source) ?? []);
}
