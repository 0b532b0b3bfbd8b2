import { describe, expect, it } from 'vitest';
import { flattenViews, mapViews, summarize, summaryOf, ZPageDefinition, type TView } from './page-definition.ts';

const view = (id: string, children: TView[] = []): TView => ({ id, code: id, title: '', dataControls: [], viewButtons: [], viewControls: children });

// main ─┬─ lines ── deliveries
//       └─ notes
// other
const tree = () => [view('main', [view('lines', [view('deliveries')]), view('notes')]), view('other')];

describe('flattenViews', () => {
  it('lists every view depth first with its parent', () => {
    const flat = flattenViews({ viewControls: tree() });
    expect(flat.map(({ view, parent }) => `${view.id}<${parent?.id ?? '-'}`)).toEqual(['main<-', 'lines<main', 'deliveries<lines', 'notes<main', 'other<-']);
  });
});

describe('mapViews', () => {
  it('reaches views at every depth', () => {
    const out = mapViews(tree(), (v) => ({ ...v, title: v.id.toUpperCase() }));
    expect(flattenViews({ viewControls: out }).map(({ view }) => view.title)).toEqual(['MAIN', 'LINES', 'DELIVERIES', 'NOTES', 'OTHER']);
  });

  it('changes one deep view and keeps everything else shared', () => {
    const before = tree();
    const after = mapViews(before, (v) => (v.id === 'deliveries' ? { ...v, title: 'Deliveries' } : v));
    const main = after[0]!;
    expect(main.viewControls[0]!.viewControls[0]!.title).toBe('Deliveries');
    // The path to the change is new; the siblings off it are the same objects.
    expect(main).not.toBe(before[0]);
    expect(main.viewControls[0]).not.toBe(before[0]!.viewControls[0]);
    expect(main.viewControls[1]).toBe(before[0]!.viewControls[1]);
    expect(after[1]).toBe(before[1]);
  });

  it('returns the same list when nothing changes', () => {
    const before = tree();
    expect(mapViews(before, (v) => v)).toBe(before);
  });

  it('hands fn a view whose children are already mapped', () => {
    const out = mapViews(tree(), (v) => ({ ...v, title: String(v.viewControls.reduce((n, c) => n + 1 + Number(c.title), 0)) }));
    // Descendant counts, which only come out right when children are mapped first.
    expect(out.map((v) => v.title)).toEqual(['3', '0']);
  });

  it('copes with views whose child list is missing (legacy documents)', () => {
    const legacy = { ...view('old'), viewControls: undefined as unknown as TView[] };
    const same = mapViews([legacy], (v) => v);
    expect(same[0]).toBe(legacy);
    expect(mapViews([legacy], (v) => ({ ...v, title: 'x' }))[0]!.title).toBe('x');
  });
});

describe('summaries', () => {
  const number = (controlType: number, summary: unknown) => ZPageDefinition.parse({ viewControls: [{ id: 'v', code: 'v', title: 'v', dataControls: [{ id: 'c', code: 'c', title: 'c', controlType, extraProperties: { summary } }] }] }).viewControls[0]!.dataControls[0]!;
  it('belong to number controls with a known kind; anything else is none', () => {
    expect([summaryOf(number(1003, 'sum')), summaryOf(number(1002, 'avg')), summaryOf(number(1001, 'sum')), summaryOf(number(1003, 'median'))]).toEqual(['sum', 'avg', null, null]);
  });
  it('sum and average numbers, count non-blank values, like the list SQL', () => {
    const values = [1.5, '2.5', null, '', 4];
    expect([summarize('sum', values), summarize('avg', values), summarize('count', values), summarize('sum', []), summarize('count', [])]).toEqual([8, 8 / 3, 3, null, 0]);
  });
});
