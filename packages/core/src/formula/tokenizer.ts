import { FormulaAbort, formulaError } from './errors.ts';

// Hand-written tokenizer. Full-width commas and parentheses (typed with a Chinese IME) are
// accepted as their ASCII forms.

export type TokenKind = 'number' | 'string' | 'ref' | 'ident' | 'op' | '(' | ')' | ',' | 'eof';
export interface Token {
  kind: TokenKind;
  /** Operator text, identifier, string content, or reference body. */
  text: string;
  start: number;
  end: number;
}

const NAME_START = /[A-Za-z_\u4e00-\u9fff]/;
const NAME_PART = /[A-Za-z0-9_.\u4e00-\u9fff]/;
const CODE_PART = /[A-Za-z0-9_\u4e00-\u9fff]/;
const TWO_CHAR_OPS = new Set(['<>', '<=', '>=']);
const ONE_CHAR_OPS = new Set(['+', '-', '*', '/', '^', '&', '=', '<', '>', '%']);
const WHITESPACE = new Set([' ', '\t', '\n', '\r', '\u3000', '\u00a0']);

const syntax = (message: string, start: number, end: number) => new FormulaAbort(formulaError('#ERROR!', message, start, end));

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  // Excel formulas may be written with a leading '='.
  while (WHITESPACE.has(source[i])) i++;
  if (source[i] === '=') i++;
  const n = source.length;
  while (i < n) {
    const c = source[i];
    if (WHITESPACE.has(c)) {
      i++;
      continue;
    }
    const start = i;
    if ((c >= '0' && c <= '9') || (c === '.' && source[i + 1] >= '0' && source[i + 1] <= '9')) {
      while (source[i] >= '0' && source[i] <= '9') i++;
      if (source[i] === '.') {
        i++;
        while (source[i] >= '0' && source[i] <= '9') i++;
      }
      if ((source[i] === 'e' || source[i] === 'E') && /[+-]?\d/.test(source.slice(i + 1, i + 3))) {
        i += source[i + 1] === '+' || source[i + 1] === '-' ? 2 : 1;
        while (source[i] >= '0' && source[i] <= '9') i++;
      }
      tokens.push({ kind: 'number', text: source.slice(start, i), start, end: i });
    } else if (c === '"') {
      let text = '';
      i++;
      for (;;) {
        if (i >= n) throw syntax('Unterminated text: a closing " is missing', start, n);
        if (source[i] === '"') {
          if (source[i + 1] === '"') {
            text += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        text += source[i++];
      }
      tokens.push({ kind: 'string', text, start, end: i });
    } else if (c === '{') {
      const close = source.indexOf('}', i);
      if (close < 0) throw syntax('Unterminated reference: a closing } is missing', start, n);
      const body = source.slice(i + 1, close).trim();
      const parts = body.split('.');
      if (parts.length > 2 || parts.some((p) => p === '' || ![...p].every((ch) => CODE_PART.test(ch)))) {
        throw syntax(`Invalid reference {${body.slice(0, 60)}}: use {code} or {view.code}`, start, close + 1);
      }
      i = close + 1;
      tokens.push({ kind: 'ref', text: body, start, end: i });
    } else if (NAME_START.test(c)) {
      while (i < n && NAME_PART.test(source[i])) i++;
      tokens.push({ kind: 'ident', text: source.slice(start, i), start, end: i });
    } else if (c === '(' || c === '（') {
      tokens.push({ kind: '(', text: '(', start, end: ++i });
    } else if (c === ')' || c === '）') {
      tokens.push({ kind: ')', text: ')', start, end: ++i });
    } else if (c === ',' || c === '，') {
      tokens.push({ kind: ',', text: ',', start, end: ++i });
    } else if (TWO_CHAR_OPS.has(source.slice(i, i + 2))) {
      tokens.push({ kind: 'op', text: source.slice(i, i + 2), start, end: (i += 2) });
    } else if (ONE_CHAR_OPS.has(c)) {
      tokens.push({ kind: 'op', text: c, start, end: ++i });
    } else {
      throw syntax(`Unexpected character "${c}"`, start, start + 1);
    }
  }
  tokens.push({ kind: 'eof', text: '', start: n, end: n });
  return tokens;
}
