import { EditorView } from '@codemirror/view';
import type { CSSProperties } from 'react';

// The SQL editor's look. Tokens carry @lezer/highlight's `tok-*` classes (classHighlighter); their
// colours come from CSS variables the editor sets from the antd theme, as the formula editor does,
// so light and dark themes both read well.

export function sqlEditorColours(token: { colorBgContainer: string; colorBorder: string; colorText: string; colorTextPlaceholder: string; colorTextTertiary: string; colorPrimary: string; colorPrimaryBg: string; colorBgElevated: string; colorFillQuaternary: string }): CSSProperties {
  const bg = token.colorBgContainer.toLowerCase();
  const dark = bg !== '#ffffff' && bg !== '#fff';
  return {
    '--sql-bg': token.colorBgContainer,
    '--sql-elevated': token.colorBgElevated,
    '--sql-border': token.colorBorder,
    '--sql-text': token.colorText,
    '--sql-muted': token.colorTextTertiary,
    '--sql-placeholder': token.colorTextPlaceholder,
    '--sql-primary': token.colorPrimary,
    '--sql-primary-bg': token.colorPrimaryBg,
    '--sql-gutter': token.colorFillQuaternary,
    '--sql-keyword': dark ? '#b37feb' : '#722ed1',
    '--sql-type': dark ? '#5cdbd3' : '#08979c',
    '--sql-string': dark ? '#ff85c0' : '#c41d7f',
    '--sql-number': dark ? '#95de64' : '#389e0d',
    '--sql-comment': '#8c8c8c',
    '--sql-operator': dark ? '#ffc069' : '#d46b08',
  } as CSSProperties;
}

export const sqlEditorTheme = EditorView.baseTheme({
  '&': { fontSize: '13px', border: '1px solid var(--sql-border, #d9d9d9)', borderRadius: '6px', background: 'var(--sql-bg, #fff)', color: 'var(--sql-text, inherit)' },
  '&.cm-focused': { outline: 'none', borderColor: 'var(--sql-primary, #4096ff)', boxShadow: '0 0 0 2px var(--sql-primary-bg, rgba(5,145,255,0.1))' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', overflow: 'auto' },
  '.cm-content': { caretColor: 'var(--sql-text, #000)' },
  '.cm-cursor': { borderLeftColor: 'var(--sql-text, #000)' },
  '.cm-gutters': { background: 'var(--sql-gutter, #fafafa)', color: 'var(--sql-muted, #999)', border: 'none', borderRadius: '6px 0 0 6px' },
  '.cm-activeLine': { background: 'transparent' },
  '.cm-placeholder': { color: 'var(--sql-placeholder, #bfbfbf)' },
  '.tok-keyword': { color: 'var(--sql-keyword)', fontWeight: '600' },
  '.tok-typeName': { color: 'var(--sql-type)' },
  '.tok-string, .tok-string2, .tok-literal': { color: 'var(--sql-string)' },
  '.tok-number, .tok-bool, .tok-atom': { color: 'var(--sql-number)' },
  '.tok-comment': { color: 'var(--sql-comment)', fontStyle: 'italic' },
  '.tok-operator, .tok-variableName2': { color: 'var(--sql-operator)' },
  '.cm-matchingBracket': { background: 'var(--sql-primary-bg)', outline: '1px solid var(--sql-primary)' },
  '.cm-tooltip': { background: 'var(--sql-elevated, #fff)', color: 'var(--sql-text, inherit)', border: '1px solid var(--sql-border, #d9d9d9)' },
  // CodeMirror's own light theme paints tooltips #f5f5f5 with a more specific rule: this one outranks it in the dark theme too.
  '&.cm-editor .cm-tooltip.cm-tooltip-autocomplete': { background: 'var(--sql-elevated, #fff)', color: 'var(--sql-text, inherit)' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': { background: 'var(--sql-primary, #1677ff)', color: '#fff' },
});
