/** An item being edited: `key` is local (new items have no id yet). */
export interface EditableItem {
  key: string;
  id?: string;
  code: string;
  label: Record<string, string>;
  parentCode: string | null;
  isEnabled: boolean;
  color: string | null;
}

/**
 * The display order of a tree dictionary: a depth-first walk with siblings in their current
 * relative order — the same order the server stores. Moving a parent therefore moves its subtree.
 * An item whose parent is missing (or sits on a cycle) is shown at the top level; the server names it.
 */
export function normalizeItems(items: EditableItem[], isTree: boolean): { items: EditableItem[]; depth: Map<string, number> } {
  const depth = new Map<string, number>();
  if (!isTree) {
    for (const i of items) depth.set(i.key, 0);
    return { items, depth };
  }
  const codes = new Set(items.map((i) => i.code).filter(Boolean));
  const parentOf = (i: EditableItem) => (i.parentCode && i.parentCode !== i.code && codes.has(i.parentCode) ? i.parentCode : null);
  const children = new Map<string | null, EditableItem[]>();
  for (const i of items) {
    const p = parentOf(i);
    children.set(p, [...(children.get(p) ?? []), i]);
  }
  const ordered: EditableItem[] = [];
  const seen = new Set<string>();
  const walk = (parent: string | null, level: number) => {
    for (const child of children.get(parent) ?? []) {
      if (seen.has(child.key)) continue;
      seen.add(child.key);
      ordered.push(child);
      depth.set(child.key, level);
      if (child.code) walk(child.code, level + 1);
    }
  };
  walk(null, 0);
  for (const i of items) {
    if (!seen.has(i.key)) {
      ordered.push(i);
      depth.set(i.key, 0);
    }
  }
  return { items: ordered, depth };
}

/** The codes under an item (children, grandchildren…). */
export function descendantCodes(items: EditableItem[], code: string): Set<string> {
  const found = new Set<string>();
  const queue = [code];
  while (queue.length) {
    const current = queue.shift()!;
    for (const i of items) {
      if (i.parentCode === current && i.code && !found.has(i.code) && i.code !== code) {
        found.add(i.code);
        queue.push(i.code);
      }
    }
  }
  return found;
}

/** Where a new child of `parentKey` goes: after the parent's last descendant. */
export function childInsertIndex(items: EditableItem[], parentKey: string): number {
  const at = items.findIndex((i) => i.key === parentKey);
  if (at < 0) return items.length;
  const parent = items[at]!.code;
  const under = new Set([parent, ...descendantCodes(items, parent)]);
  let end = at + 1;
  // Items are in display order, so the subtree is the run of rows whose parent is in it.
  while (end < items.length && items[end]!.parentCode && under.has(items[end]!.parentCode!)) end++;
  return end;
}
