import type { BinaryOperator, FormulaNode } from './ast.ts';
import { FormulaAbort, formulaError } from './errors.ts';
import { DEFAULT_FORMULA_LIMITS, type FormulaLimits } from './limits.ts';
import { tokenize, type Token } from './tokenizer.ts';

// Recursive-descent parser with Excel precedence, lowest first:
//   comparison (= <> < <= > >=)  →  &  →  + -  →  * /  →  ^  →  %  →  unary - +  →  primary
// All binary operators are left-associative (Excel: 2^3^2 = 64, -2^2 = 4). Depth and node count
// are checked while parsing, so hostile input ends in an error value, never a stack overflow.

const COMPARISON = new Set(['=', '<>', '<', '<=', '>', '>=']);
const ADDITIVE = new Set(['+', '-']);
const MULTIPLICATIVE = new Set(['*', '/']);

export type ParseLimits = Pick<FormulaLimits, 'maxSourceLength' | 'maxNodes' | 'maxDepth'>;

class Parser {
  private pos = 0;
  private nodes = 0;
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly limits: ParseLimits,
  ) {}

  parse(): FormulaNode {
    if (this.peek().kind === 'eof') throw this.fail('The formula is empty', this.peek());
    const node = this.comparison();
    const next = this.peek();
    if (next.kind !== 'eof') throw this.fail(`Unexpected "${next.text || next.kind}"`, next);
    return node;
  }

  private peek(): Token {
    return this.tokens[this.pos];
  }

  private next(): Token {
    return this.tokens[this.pos++];
  }

  private fail(message: string, token: Pick<Token, 'start' | 'end'>) {
    return new FormulaAbort(formulaError('#ERROR!', message, token.start, Math.max(token.end, token.start + 1)));
  }

  private make<T extends FormulaNode>(node: T): T {
    if (++this.nodes > this.limits.maxNodes) throw this.fail(`The formula is too large (more than ${this.limits.maxNodes} parts)`, node);
    return node;
  }

  private enter(token: Token) {
    if (++this.depth > this.limits.maxDepth) throw this.fail(`The formula is nested too deeply (more than ${this.limits.maxDepth} levels)`, token);
  }

  private binaryLevel(ops: Set<string>, operand: () => FormulaNode): FormulaNode {
    let left = operand();
    let chain = 0;
    while (this.peek().kind === 'op' && ops.has(this.peek().text)) {
      const op = this.next();
      // A left-associative chain nests to the left: count it toward the depth limit.
      this.enter(op);
      chain++;
      const right = operand();
      left = this.make({ type: 'binary', op: op.text as BinaryOperator, left, right, start: left.start, end: right.end });
    }
    this.depth -= chain;
    return left;
  }

  private comparison = (): FormulaNode => this.binaryLevel(COMPARISON, this.concat);
  private concat = (): FormulaNode => this.binaryLevel(new Set(['&']), this.additive);
  private additive = (): FormulaNode => this.binaryLevel(ADDITIVE, this.multiplicative);
  private multiplicative = (): FormulaNode => this.binaryLevel(MULTIPLICATIVE, this.power);
  private power = (): FormulaNode => this.binaryLevel(new Set(['^']), this.percent);

  private percent = (): FormulaNode => {
    let node = this.unary();
    while (this.peek().kind === 'op' && this.peek().text === '%') {
      const op = this.next();
      node = this.make({ type: 'percent', operand: node, start: node.start, end: op.end });
    }
    return node;
  };

  private unary = (): FormulaNode => {
    const token = this.peek();
    if (token.kind === 'op' && (token.text === '-' || token.text === '+')) {
      this.next();
      this.enter(token);
      const operand = this.unary();
      this.depth--;
      return this.make({ type: 'unary', op: token.text, operand, start: token.start, end: operand.end });
    }
    return this.primary();
  };

  private primary(): FormulaNode {
    const token = this.next();
    switch (token.kind) {
      case 'number': {
        const value = Number(token.text);
        if (!Number.isFinite(value)) throw this.fail(`Number out of range: ${token.text}`, token);
        return this.make({ type: 'number', value, start: token.start, end: token.end });
      }
      case 'string':
        return this.make({ type: 'string', value: token.text, start: token.start, end: token.end });
      case 'ref': {
        const dot = token.text.indexOf('.');
        const view = dot < 0 ? null : token.text.slice(0, dot);
        const code = dot < 0 ? token.text : token.text.slice(dot + 1);
        return this.make({ type: 'ref', view, code, start: token.start, end: token.end });
      }
      case '(': {
        this.enter(token);
        const inner = this.comparison();
        const close = this.next();
        if (close.kind !== ')') throw this.fail('A closing ) is missing', close.kind === 'eof' ? token : close);
        this.depth--;
        // The span includes the parentheses, so errors underline the whole group.
        return { ...inner, start: token.start, end: close.end };
      }
      case 'ident':
        return this.identifier(token);
      case 'eof':
        throw this.fail('The formula ends too early', token);
      default:
        throw this.fail(`Unexpected "${token.text}"`, token);
    }
  }

  private identifier(token: Token): FormulaNode {
    const upper = token.text.toUpperCase();
    if (this.peek().kind !== '(') {
      if (upper === 'TRUE' || upper === 'FALSE') return this.make({ type: 'boolean', value: upper === 'TRUE', start: token.start, end: token.end });
      return this.make({ type: 'name', name: token.text, start: token.start, end: token.end });
    }
    const open = this.next();
    this.enter(open);
    const args: FormulaNode[] = [];
    if (this.peek().kind !== ')') {
      for (;;) {
        args.push(this.comparison());
        if (this.peek().kind !== ',') break;
        this.next();
      }
    }
    const close = this.next();
    if (close.kind !== ')') throw this.fail(`A closing ) is missing for ${token.text}(`, close.kind === 'eof' ? open : close);
    this.depth--;
    return this.make({ type: 'call', name: upper, args, start: token.start, end: close.end });
  }
}

/** Parses formula source into an AST; throws `FormulaAbort` with a positioned `#ERROR!`. */
export function parseFormula(source: string, limits: ParseLimits = DEFAULT_FORMULA_LIMITS): FormulaNode {
  if (typeof source !== 'string') throw new FormulaAbort(formulaError('#ERROR!', 'A formula must be text', 0, 0));
  if (source.length > limits.maxSourceLength) {
    throw new FormulaAbort(formulaError('#ERROR!', `The formula is too long (more than ${limits.maxSourceLength} characters)`, limits.maxSourceLength, source.length));
  }
  return new Parser(tokenize(source), limits).parse();
}
