import type { TPermissionGroup, TPermissionListResult, TProviderName } from '@tessera/core/contracts/authorization';

export interface PermissionNode {
  key: string;
  name: string;
  displayName: string;
  group: string;
  /** Granted through another provider (a user's role or unit, a unit above): shown checked, not editable here. */
  inheritedFrom: { providerName: TProviderName; providerKey: string }[];
  children: PermissionNode[];
}

export interface GroupNode {
  key: string;
  name: string;
  displayName: string;
  isSystem: boolean;
  children: PermissionNode[];
  /** Every permission name in the group, depth first. */
  names: string[];
}

export const groupKey = (name: string) => `group:${name}`;

/** Groups → permissions nested by parentName (a parent outside the group leaves the child at the top). */
export function buildPermissionTree(data: TPermissionListResult, providerName: TProviderName, providerKey: string): GroupNode[] {
  return data.groups.map((group: TPermissionGroup) => {
    const nodes = new Map<string, PermissionNode>();
    for (const p of group.permissions) {
      nodes.set(p.name, {
        key: p.name,
        name: p.name,
        displayName: p.displayName,
        group: group.name,
        inheritedFrom: p.grantedProviders.filter((s) => !(s.providerName === providerName && s.providerKey === providerKey)),
        children: [],
      });
    }
    const roots: PermissionNode[] = [];
    for (const p of group.permissions) {
      const node = nodes.get(p.name)!;
      const parent = p.parentName ? nodes.get(p.parentName) : undefined;
      (parent && parent !== node ? parent.children : roots).push(node);
    }
    const names: string[] = [];
    const walk = (list: PermissionNode[]) => list.forEach((n) => (names.push(n.name), walk(n.children)));
    walk(roots);
    return { key: groupKey(group.name), name: group.name, displayName: group.displayName, isSystem: group.isSystem, children: roots, names };
  });
}

/** The provider's own grants as the server has them. */
export function directGrants(data: TPermissionListResult, providerName: TProviderName, providerKey: string): Set<string> {
  const granted = new Set<string>();
  for (const g of data.groups) {
    for (const p of g.permissions) {
      if (p.grantedProviders.some((s) => s.providerName === providerName && s.providerKey === providerKey)) granted.add(p.name);
    }
  }
  return granted;
}

/** Parent and child links of every permission, for "checking a child checks its parents; unchecking a parent unchecks its children". */
export function relations(groups: GroupNode[]) {
  const parentOf = new Map<string, string>();
  const childrenOf = new Map<string, string[]>();
  const byName = new Map<string, PermissionNode>();
  const walk = (list: PermissionNode[], parent: string | null) => {
    for (const n of list) {
      byName.set(n.name, n);
      if (parent) parentOf.set(n.name, parent);
      childrenOf.set(n.name, n.children.map((c) => c.name));
      walk(n.children, n.name);
    }
  };
  for (const g of groups) walk(g.children, null);
  const ancestors = (name: string) => {
    const out: string[] = [];
    for (let p = parentOf.get(name); p; p = parentOf.get(p)) out.push(p);
    return out;
  };
  const descendants = (name: string): string[] => (childrenOf.get(name) ?? []).flatMap((c) => [c, ...descendants(c)]);
  return { byName, ancestors, descendants };
}

export type Relations = ReturnType<typeof relations>;

/** Shown checked: granted to this provider, or inherited from another (then locked). */
export const isShownChecked = (n: PermissionNode, value: ReadonlySet<string>) => value.has(n.name) || n.inheritedFrom.length > 0;

/**
 * The tree's checked keys (it checks strictly: each node on its own): every permission shown
 * checked; a group when all its permissions are, half-checked when only some are.
 */
export function checkedKeys(groups: GroupNode[], rel: Relations, value: ReadonlySet<string>): { checked: string[]; halfChecked: string[] } {
  const checked: string[] = [];
  const halfChecked: string[] = [];
  for (const g of groups) {
    const all = g.names.map((name) => rel.byName.get(name)!);
    const on = all.filter((n) => isShownChecked(n, value));
    checked.push(...on.map((n) => n.key));
    if (on.length === all.length && all.length > 0) checked.push(g.key);
    else if (on.length > 0) halfChecked.push(g.key);
  }
  return { checked, halfChecked };
}

/**
 * The grants after the user (un)checks `key`, a group or a permission: a group sets all its
 * permissions; checking a permission checks the permissions above it (ABP: a child needs its
 * parent); unchecking one unchecks those below it. Inherited grants are never changed here.
 */
export function toggleGrant(groups: GroupNode[], rel: Relations, value: ReadonlySet<string>, key: string, checked: boolean): Set<string> {
  const next = new Set(value);
  const editable = (name: string) => rel.byName.get(name)!.inheritedFrom.length === 0;
  const group = groups.find((g) => g.key === key);
  if (group) {
    for (const name of group.names) if (editable(name)) (checked ? next.add(name) : next.delete(name));
  } else if (checked) {
    for (const name of [key, ...rel.ancestors(key)]) if (editable(name)) next.add(name);
  } else {
    for (const name of [key, ...rel.descendants(key)]) if (editable(name)) next.delete(name);
  }
  return next;
}

/** The grants to send: only what differs from the server. */
export function changesBetween(before: Set<string>, after: Set<string>) {
  const permissions: { name: string; isGranted: boolean }[] = [];
  for (const name of after) if (!before.has(name)) permissions.push({ name, isGranted: true });
  for (const name of before) if (!after.has(name)) permissions.push({ name, isGranted: false });
  return permissions;
}

/** Keeps nodes whose name or code contains the text, with their ancestors. */
export function filterGroups(groups: GroupNode[], text: string): GroupNode[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return groups;
  const match = (n: { name: string; displayName: string }) => n.displayName.toLowerCase().includes(needle) || n.name.toLowerCase().includes(needle);
  const prune = (list: PermissionNode[]): PermissionNode[] =>
    list.flatMap((n) => {
      if (match(n)) return [n];
      const children = prune(n.children);
      return children.length ? [{ ...n, children }] : [];
    });
  return groups.flatMap((g) => {
    if (match(g)) return [g];
    const children = prune(g.children);
    return children.length ? [{ ...g, children }] : [];
  });
}
