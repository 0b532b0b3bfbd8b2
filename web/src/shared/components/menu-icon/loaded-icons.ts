import type { ComponentType, CSSProperties } from 'react';

// Whether the whole icon set (all-icons.tsx, a large chunk) is loaded yet: MenuIcon draws any
// icon at once when it is, and loads it lazily when not. Kept apart so neither imports the other.

export type IconComponent = ComponentType<{ style?: CSSProperties; className?: string }>;

let loaded: ReadonlyMap<string, IconComponent> | null = null;

export const loadedIcons = () => loaded;

export function setLoadedIcons(icons: ReadonlyMap<string, IconComponent>) {
  loaded = icons;
}
