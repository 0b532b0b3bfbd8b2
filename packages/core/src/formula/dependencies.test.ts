import { describe, expect, it } from 'vitest';
import { affectedBy, analyzeDependencies, type GraphItem } from './dependencies.ts';
import { compileFormula } from './index.ts';

// Keys here are control codes; each formula writes one control.
const formulas: Record<string, string> = {
  amount: '{qty} * {price}',
  tax: 'ROUND({amount} * {rate}, 2)',
  total: '{amount} + {tax}',
  label: 'IF({total} > 100, "big", "small")',
  other: '{unrelated} + 1',
};
const items: GraphItem[] = Object.entries(formulas).map(([target, source]) => ({
  id: target,
  writes: [target],
  reads: compileFormula(source).references.map((r) => r.code),
}));

describe('dependency analysis', () => {
  it('orders formulas after what they read', () => {
    const { order, cycles } = analyzeDependencies(items);
    expect(cycles).toEqual([]);
    expect(order.indexOf('amount')).toBeLessThan(order.indexOf('tax'));
    expect(order.indexOf('tax')).toBeLessThan(order.indexOf('total'));
    expect(order.indexOf('total')).toBeLessThan(order.indexOf('label'));
  });

  it.each([
    [['qty'], ['amount', 'tax', 'total', 'label']],
    [['rate'], ['tax', 'total', 'label']],
    [['total'], ['label']],
    [['unrelated'], ['other']],
    [['nothing'], []],
  ])('a change of %j recomputes only %j', (changed, expected) => {
    expect(affectedBy(items, changed)).toEqual(expected);
  });

  it('reports cycles, including self-references', () => {
    const cyclic: GraphItem[] = [
      { id: 'a', writes: ['a'], reads: ['c'] },
      { id: 'b', writes: ['b'], reads: ['a'] },
      { id: 'c', writes: ['c'], reads: ['b'] },
      { id: 'd', writes: ['d'], reads: ['d'] },
      { id: 'e', writes: ['e'], reads: ['a'] },
    ];
    const { cycles, order } = analyzeDependencies(cyclic);
    expect(cycles.map((c) => [...c].sort())).toEqual(expect.arrayContaining([['a', 'b', 'c'], ['d']]));
    expect(cycles).toHaveLength(2);
    expect(order).toHaveLength(5);
  });

  it('handles long chains without recursion limits', () => {
    const chain: GraphItem[] = Array.from({ length: 20_000 }, (_, i) => ({ id: `f${i}`, writes: [`k${i + 1}`], reads: [`k${i}`] }));
    const { order, cycles } = analyzeDependencies(chain.slice().reverse());
    expect(cycles).toEqual([]);
    expect(order[0]).toBe('f0');
    expect(order.at(-1)).toBe('f19999');
  });
});
