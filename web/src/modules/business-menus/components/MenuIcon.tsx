import * as AntIcons from '@ant-design/icons';
import type { ComponentType, CSSProperties } from 'react';

type IconComponent = ComponentType<{ style?: CSSProperties; className?: string }>;
const registry = AntIcons as unknown as Record<string, IconComponent>;

/** Every @ant-design/icons icon name (Outlined, Filled, TwoTone), for the picker. */
export const ICON_NAMES = Object.keys(registry)
  .filter((name) => /^[A-Z][A-Za-z0-9]*(Outlined|Filled|TwoTone)$/.test(name))
  .sort();

/** A business menu's icon by its stored name (spec §3 `url`); nothing for an unknown name. */
export function MenuIcon({ name, style }: { name: string | null | undefined; style?: CSSProperties }) {
  const Icon = name && ICON_NAMES.includes(name) ? registry[name] : undefined;
  return Icon ? <Icon style={style} /> : null;
}
