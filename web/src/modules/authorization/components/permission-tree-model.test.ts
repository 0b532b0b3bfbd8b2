import type { TPermissionListResult, TProviderName } from '@tessera/core/contracts/authorization';
import { describe, expect, it } from 'vitest';
import { buildPermissionTree, changesBetween, checkedKeys, directGrants, filterGroups, relations, toggleGrant } from './permission-tree-model.ts';

// Editing user u1's grants. Identity: Users > Users.Create > Users.Create.Import, Users > Users.Delete;
// Roles (inherited from u1's role r1). Settings: Settings.Manage, whose parent is in another group.
const role = { providerName: 'R', providerKey: 'r1' } as const;
const self = { providerName: 'U', providerKey: 'u1' } as const;
const perm = (name: string, parentName: string | null, grantedProviders: { providerName: TProviderName; providerKey: string }[] = []) => ({
  name,
  displayName: `${name} text`,
  parentName,
  isGranted: grantedProviders.length > 0,
  grantedProviders,
});
const data = (): TPermissionListResult => ({
  entityDisplayName: 'Ann',
  isReadOnly: false,
  groups: [
    {
      name: 'Identity',
      displayName: 'Identity management',
      isSystem: true,
      permissions: [
        perm('Users.Create.Import', 'Users.Create'),
        perm('Users', null, [self]),
        perm('Users.Create', 'Users'),
        perm('Users.Delete', 'Users'),
        perm('Roles', null, [role, self]),
      ],
    },
    { name: 'Settings', displayName: 'Settings', isSystem: true, permissions: [perm('Settings.Manage', 'Users')] },
  ],
});

const setup = () => {
  const groups = buildPermissionTree(data(), 'U', 'u1');
  return { groups, rel: relations(groups) };
};

describe('buildPermissionTree', () => {
  it('nests permissions under their parents whatever order the server lists them in', () => {
    const [identity] = setup().groups;
    expect(identity!.children.map((n) => n.name)).toEqual(['Users', 'Roles']);
    expect(identity!.children[0]!.children.map((n) => n.name)).toEqual(['Users.Create', 'Users.Delete']);
    expect(identity!.children[0]!.children[0]!.children.map((n) => n.name)).toEqual(['Users.Create.Import']);
    expect(identity!.names).toEqual(['Users', 'Users.Create', 'Users.Create.Import', 'Users.Delete', 'Roles']);
  });

  it('leaves a permission whose parent is in another group at the top of its own group', () => {
    const settings = setup().groups[1]!;
    expect(settings.children.map((n) => n.name)).toEqual(['Settings.Manage']);
  });

  it("marks grants from another provider as inherited, not the provider's own", () => {
    const { rel } = setup();
    expect(rel.byName.get('Roles')!.inheritedFrom).toEqual([role]);
    expect(rel.byName.get('Users')!.inheritedFrom).toEqual([]);
    expect([...directGrants(data(), 'U', 'u1')].sort()).toEqual(['Roles', 'Users']);
  });
});

describe('checkedKeys', () => {
  it('shows a group half-checked while only some of its permissions are on, checked when all are', () => {
    const { groups, rel } = setup();
    const some = checkedKeys(groups, rel, new Set(['Users']));
    // Roles is inherited, so it shows checked too.
    expect(some.checked.sort()).toEqual(['Roles', 'Users']);
    expect(some.halfChecked).toEqual(['group:Identity']);

    const all = checkedKeys(groups, rel, new Set(['Users', 'Users.Create', 'Users.Create.Import', 'Users.Delete', 'Settings.Manage']));
    expect(all.checked).toContain('group:Identity');
    expect(all.checked).toContain('group:Settings');
    expect(all.halfChecked).toEqual([]);
  });

  it('shows a group with nothing on as neither checked nor half-checked', () => {
    const { groups, rel } = setup();
    const none = checkedKeys(groups, rel, new Set());
    expect(none.checked).not.toContain('group:Settings');
    expect(none.halfChecked).not.toContain('group:Settings');
  });
});

describe('toggleGrant', () => {
  it('checking a permission checks the permissions above it', () => {
    const { groups, rel } = setup();
    expect([...toggleGrant(groups, rel, new Set(), 'Users.Create.Import', true)].sort()).toEqual(['Users', 'Users.Create', 'Users.Create.Import']);
  });

  it('unchecking a permission unchecks the permissions below it and leaves its siblings', () => {
    const { groups, rel } = setup();
    const before = new Set(['Users', 'Users.Create', 'Users.Create.Import', 'Users.Delete']);
    expect([...toggleGrant(groups, rel, before, 'Users.Create', false)].sort()).toEqual(['Users', 'Users.Delete']);
  });

  it('a group sets all its permissions but never touches inherited ones', () => {
    const { groups, rel } = setup();
    const on = toggleGrant(groups, rel, new Set(), 'group:Identity', true);
    expect([...on].sort()).toEqual(['Users', 'Users.Create', 'Users.Create.Import', 'Users.Delete']);
    const off = toggleGrant(groups, rel, new Set([...on, 'Settings.Manage']), 'group:Identity', false);
    expect([...off]).toEqual(['Settings.Manage']);
  });

  it('does not change the set it was given', () => {
    const { groups, rel } = setup();
    const value = new Set(['Users']);
    toggleGrant(groups, rel, value, 'Users.Delete', true);
    expect([...value]).toEqual(['Users']);
  });
});

describe('changesBetween', () => {
  it('sends only what differs from the server', () => {
    expect(changesBetween(new Set(['A', 'B']), new Set(['B', 'C']))).toEqual([
      { name: 'C', isGranted: true },
      { name: 'A', isGranted: false },
    ]);
    expect(changesBetween(new Set(['A']), new Set(['A']))).toEqual([]);
  });
});

describe('filterGroups', () => {
  it('keeps matches (by text or code, any case) with their ancestors, and drops the rest', () => {
    const { groups } = setup();
    const found = filterGroups(groups, ' IMPORT ');
    expect(found.map((g) => g.name)).toEqual(['Identity']);
    expect(found[0]!.children.map((n) => n.name)).toEqual(['Users']);
    expect(found[0]!.children[0]!.children.map((n) => n.name)).toEqual(['Users.Create']);
    expect(found[0]!.children[0]!.children[0]!.children.map((n) => n.name)).toEqual(['Users.Create.Import']);
  });

  it('an empty search shows everything; a search matching nothing shows nothing', () => {
    const { groups } = setup();
    expect(filterGroups(groups, '  ')).toBe(groups);
    expect(filterGroups(groups, 'no such permission')).toEqual([]);
  });
});
