import { autocompletion, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { MSSQL, MySQL, PostgreSQL, sql, type SQLNamespace } from '@codemirror/lang-sql';
import { bracketMatching, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, placeholder as placeholderExt } from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';
import type { SqlDialect } from '@tessera/core/helpers/sql-parameters';
import { theme } from 'antd';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { sqlEditorColours, sqlEditorTheme } from './sql-editor-theme.ts';

export interface SqlEditorHandle {
  /** Puts a statement at the cursor on a line of its own (or as the whole text when there is none) and focuses the editor. */
  /** Puts text at the cursor (replacing a selection); on lines of its own unless `inline`. */
  insert(text: string, inline?: boolean): void;
  focus(): void;
}

export interface SqlEditorProps {
  value: string;
  onChange(value: string): void;
  dialect: SqlDialect;
  /** Ctrl+Enter (⌘+Enter): run the statement. */
  onRun(): void;
  /** Schemas → tables → columns offered by autocomplete. */
  schema?: SQLNamespace;
  defaultSchema?: string;
  placeholder?: string;
  height?: number;
  'aria-label'?: string;
  'data-testid'?: string;
  ref?: Ref<SqlEditorHandle>;
}

const languageOf = (dialect: SqlDialect, schema: SQLNamespace | undefined, defaultSchema: string | undefined) =>
  sql({ dialect: dialect === 'mysql' ? MySQL : dialect === 'mssql' ? MSSQL : PostgreSQL, schema, defaultSchema });

/** An SQL editor (CodeMirror 6): the source's dialect highlighted, keywords and known tables completed, undo, Ctrl+Enter runs. */
export function SqlEditor({ value, onChange, dialect, onRun, schema, defaultSchema, placeholder, height = 220, ref, ...rest }: SqlEditorProps) {
  const { token } = theme.useToken();
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ onChange, onRun });
  latest.current = { onChange, onRun };
  const compartments = useRef({ language: new Compartment(), placeholder: new Compartment() });

  useEffect(() => {
    const c = compartments.current;
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          // Before the completion keymap: Ctrl+Enter runs even while a completion is offered.
          Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => (latest.current.onRun(), true) }])),
          lineNumbers(),
          history(),
          bracketMatching(),
          EditorView.lineWrapping,
          c.language.of(languageOf(dialect, schema, defaultSchema)),
          syntaxHighlighting(classHighlighter),
          autocompletion({ icons: false }),
          keymap.of([...completionKeymap, ...historyKeymap, ...defaultKeymap]),
          sqlEditorTheme,
          EditorView.theme({ '&': { height: `${height}px` } }),
          EditorView.contentAttributes.of({ 'aria-label': rest['aria-label'] ?? 'SQL', 'aria-multiline': 'true' }),
          c.placeholder.of(placeholder ? placeholderExt(placeholder) : []),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    // Escape that the editor used (closing a completion) must not also close the drawer around it,
    // which listens on the window.
    const keepHandledEscape = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && e.defaultPrevented) e.stopPropagation();
    };
    const element = host.current!;
    element.addEventListener('keydown', keepHandledEscape);
    return () => {
      element.removeEventListener('keydown', keepHandledEscape);
      editor.destroy();
      view.current = null;
    };
    // Created once; later prop changes go through compartments and refs.
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  // A text set from outside (a table clicked in the tree goes through insert(), not here).
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.language.reconfigure(languageOf(dialect, schema, defaultSchema)) });
  }, [dialect, schema, defaultSchema]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.placeholder.reconfigure(placeholder ? placeholderExt(placeholder) : []) });
  }, [placeholder]);

  useImperativeHandle(
    ref,
    () => ({
      insert(text: string, inline = false) {
        const editor = view.current;
        if (!editor) return;
        const doc = editor.state.doc;
        const { from, to } = editor.state.selection.main;
        const before = !inline && from > 0 && doc.sliceString(from - 1, from) !== '\n' ? '\n' : '';
        const after = !inline && to < doc.length && doc.sliceString(to, to + 1) !== '\n' ? '\n' : '';
        const end = from + before.length + text.length;
        editor.dispatch({ changes: { from, to, insert: before + text + after }, selection: { anchor: end }, scrollIntoView: true, userEvent: 'input' });
        editor.focus();
      },
      focus: () => view.current?.focus(),
    }),
    [],
  );

  return <div ref={host} className="tessera-sql-editor" style={sqlEditorColours(token)} data-testid={rest['data-testid']} />;
}
