import * as AntIcons from '@ant-design/icons';
import type { CSSProperties, ReactNode } from 'react';
import { setLoadedIcons, type IconComponent } from './loaded-icons.ts';

// The whole @ant-design/icons set, which business menus may use: large, so only the icon picker,
// the icon page and MenuIcon's lazy path load it.

const registry = AntIcons as unknown as Record<string, IconComponent>;

/** Every @ant-design/icons icon name (Outlined, Filled, TwoTone), for the picker. */
export const ICON_NAMES = Object.keys(registry)
  .filter((name) => /^[A-Z][A-Za-z0-9]*(Outlined|Filled|TwoTone)$/.test(name))
  .sort();

const ICONS: ReadonlyMap<string, IconComponent> = new Map(ICON_NAMES.map((name) => [name, registry[name]!]));
setLoadedIcons(ICONS);

/** An icon of the whole set by name; `fallback` (or nothing) for an unknown name. */
export default function AnyIcon({ name, style, fallback = null }: { name: string; style?: CSSProperties; fallback?: ReactNode }) {
  const Icon = ICONS.get(name);
  return Icon ? <Icon style={style} /> : fallback;
}
