import type { LocalizedText } from '../db/schema.ts';

export interface PermissionDefinition {
  name: string;
  group: string;
  groupDisplayName: LocalizedText;
  displayName: LocalizedText;
  parentName: string | null;
}

const definitions = new Map<string, PermissionDefinition>();

/**
 * Modules declare their permission codes here at import time; the server stores them in
 * `permission_definitions` at start-up so the authorization screens list them automatically.
 */
export function definePermissionGroup(
  group: string,
  groupDisplayName: LocalizedText,
  items: { name: string; displayName: LocalizedText; parentName?: string }[],
) {
  for (const item of items) {
    definitions.set(item.name, {
      name: item.name,
      group,
      groupDisplayName,
      displayName: item.displayName,
      parentName: item.parentName ?? null,
    });
  }
}

export function systemPermissions(): PermissionDefinition[] {
  return [...definitions.values()];
}

export function isDefinedPermission(name: string): boolean {
  return definitions.has(name);
}
