// The formula AST. Every node carries its source span (`start` inclusive, `end` exclusive) so
// errors can point at the text that caused them.

export type BinaryOperator = '+' | '-' | '*' | '/' | '^' | '&' | '=' | '<>' | '<' | '<=' | '>' | '>=';

interface Span {
  start: number;
  end: number;
}

export type FormulaNode =
  | (Span & { type: 'number'; value: number })
  | (Span & { type: 'string'; value: string })
  | (Span & { type: 'boolean'; value: boolean })
  /** `{code}` (view null) or `{viewCode.code}`. */
  | (Span & { type: 'ref'; view: string | null; code: string })
  /** A bare name: a parameter inside a user-defined function body. */
  | (Span & { type: 'name'; name: string })
  | (Span & { type: 'unary'; op: '-' | '+'; operand: FormulaNode })
  | (Span & { type: 'percent'; operand: FormulaNode })
  | (Span & { type: 'binary'; op: BinaryOperator; left: FormulaNode; right: FormulaNode })
  /** Function call; `name` is upper-cased. */
  | (Span & { type: 'call'; name: string; args: FormulaNode[] });

/** Children of a node, for walkers. */
export function childrenOf(node: FormulaNode): FormulaNode[] {
  switch (node.type) {
    case 'unary':
    case 'percent':
      return [node.operand];
    case 'binary':
      return [node.left, node.right];
    case 'call':
      return node.args;
    default:
      return [];
  }
}

/** Visits every node without recursion (ASTs are bounded, but walkers should not rely on it). */
export function walk(root: FormulaNode, visit: (node: FormulaNode) => void): void {
  const stack: FormulaNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    visit(node);
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}
