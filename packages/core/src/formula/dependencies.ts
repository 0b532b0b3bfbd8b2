import { walk, type FormulaNode } from './ast.ts';

// Which references a formula reads, and the dependency graph of a set of formulas: recompute
// order, the formulas affected by a change, and cycles (reported at design time).

export interface FormulaReference {
  /** View code for `{view.code}`, null for `{code}`. */
  view: string | null;
  code: string;
  /** Span of the first occurrence. */
  start: number;
  end: number;
}

/** Distinct references of an AST, in source order. */
export function referencesOf(ast: FormulaNode | null): FormulaReference[] {
  if (!ast) return [];
  const seen = new Map<string, FormulaReference>();
  walk(ast, (node) => {
    if (node.type !== 'ref') return;
    const key = `${node.view ?? ''}\u0000${node.code}`;
    if (!seen.has(key)) seen.set(key, { view: node.view, code: node.code, start: node.start, end: node.end });
  });
  return [...seen.values()].sort((a, b) => a.start - b.start);
}

/** One formula in a graph: the keys it reads and the keys it writes (keys are caller-defined). */
export interface GraphItem {
  id: string;
  reads: readonly string[];
  writes: readonly string[];
}

export interface DependencyAnalysis {
  /** Ids in an order where every formula comes after those it depends on (cycle members last). */
  order: string[];
  /** Each cycle as the ids of its members (a formula reading what it writes is a cycle of one). */
  cycles: string[][];
}

/** Edges: writer → readers of what it writes. */
function edgesOf(items: readonly GraphItem[]): Map<string, string[]> {
  const writers = new Map<string, string[]>();
  for (const item of items) for (const key of item.writes) writers.set(key, [...(writers.get(key) ?? []), item.id]);
  const edges = new Map<string, string[]>(items.map((i) => [i.id, []]));
  for (const item of items) {
    for (const key of item.reads) for (const writer of writers.get(key) ?? []) edges.get(writer)!.push(item.id);
  }
  return edges;
}

/** Strongly connected components (Tarjan, iterative so large graphs cannot overflow the stack). */
function components(ids: string[], edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const result: string[][] = [];
  let counter = 0;
  for (const root of ids) {
    if (index.has(root)) continue;
    const work: [string, number][] = [[root, 0]];
    while (work.length) {
      const frame = work[work.length - 1];
      const [v, i] = frame;
      if (i === 0 && !index.has(v)) {
        index.set(v, counter);
        low.set(v, counter++);
        stack.push(v);
        onStack.add(v);
      }
      const next = edges.get(v) ?? [];
      if (i < next.length) {
        frame[1]++;
        const w = next[i];
        if (!index.has(w)) work.push([w, 0]);
        else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        result.push(component);
      }
    }
  }
  return result;
}

export function analyzeDependencies(items: readonly GraphItem[]): DependencyAnalysis {
  const edges = edgesOf(items);
  const ids = items.map((i) => i.id);
  // Tarjan emits components in reverse topological order.
  const sccs = components(ids, edges).reverse();
  const cycles = sccs.filter((c) => c.length > 1 || edges.get(c[0])!.includes(c[0])).map((c) => c.reverse());
  const inCycle = new Set(cycles.flat());
  const order = sccs.flat().filter((id) => !inCycle.has(id)).concat(cycles.flat());
  return { order, cycles };
}

/**
 * Formulas to recompute after `changedKeys` change: those reading a changed key, and those
 * reading what an affected formula writes, transitively, in recompute order. Nothing else.
 */
export function affectedBy(items: readonly GraphItem[], changedKeys: readonly string[], analysis = analyzeDependencies(items)): string[] {
  const readers = new Map<string, string[]>();
  for (const item of items) for (const key of item.reads) readers.set(key, [...(readers.get(key) ?? []), item.id]);
  const byId = new Map(items.map((i) => [i.id, i]));
  const affected = new Set<string>();
  const queue = [...changedKeys];
  while (queue.length) {
    const key = queue.shift()!;
    for (const id of readers.get(key) ?? []) {
      if (affected.has(id)) continue;
      affected.add(id);
      queue.push(...byId.get(id)!.writes);
    }
  }
  return analysis.order.filter((id) => affected.has(id));
}
