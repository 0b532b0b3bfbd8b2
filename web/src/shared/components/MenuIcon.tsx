import {
  ApartmentOutlined,
  ApiOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BarChartOutlined,
  BookOutlined,
  BuildOutlined,
  CarryOutOutlined,
  CheckSquareOutlined,
  ClockCircleOutlined,
  CloudServerOutlined,
  ClusterOutlined,
  CodeOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DeploymentUnitOutlined,
  FileSearchOutlined,
  FormOutlined,
  GlobalOutlined,
  HomeOutlined,
  KeyOutlined,
  MenuOutlined,
  NodeIndexOutlined,
  NumberOutlined,
  PrinterOutlined,
  QuestionCircleOutlined,
  SafetyCertificateOutlined,
  ScanOutlined,
  SettingOutlined,
  SwapOutlined,
  TeamOutlined,
  ToolOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { lazy, Suspense, type CSSProperties, type ReactNode } from 'react';
import { loadedIcons, type IconComponent } from './menu-icon/loaded-icons.ts';

/** The icons the system menus and routes use, by name (a fixed set keeps the layout chunk small). */
const SYSTEM_ICONS: Record<string, IconComponent> = {
  ApartmentOutlined,
  AppstoreOutlined,
  AuditOutlined,
  ApiOutlined,
  BarChartOutlined,
  BookOutlined,
  BuildOutlined,
  CarryOutOutlined,
  CheckSquareOutlined,
  ClockCircleOutlined,
  CloudServerOutlined,
  ClusterOutlined,
  CodeOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DeploymentUnitOutlined,
  FileSearchOutlined,
  FormOutlined,
  GlobalOutlined,
  HomeOutlined,
  KeyOutlined,
  MenuOutlined,
  NodeIndexOutlined,
  NumberOutlined,
  PrinterOutlined,
  QuestionCircleOutlined,
  SafetyCertificateOutlined,
  ScanOutlined,
  SettingOutlined,
  SwapOutlined,
  TeamOutlined,
  ToolOutlined,
  UserOutlined,
};

// Business menus may use any icon of the whole set: that registry is large, so it loads on its own
// (once loaded, by the icon picker or an earlier lazy draw, it draws at once).
const AnyIcon = lazy(() => import('./menu-icon/all-icons.tsx'));

/**
 * A menu's icon by its stored name (system menus and routes: a fixed set; `business`: any icon of
 * @ant-design/icons). `fallback` (or nothing) for no name or an unknown one.
 */
export function MenuIcon({ name, business = false, style, fallback = null }: { name?: string | null; business?: boolean; style?: CSSProperties; fallback?: ReactNode }) {
  if (!name) return fallback;
  const Icon = SYSTEM_ICONS[name];
  if (Icon) return <Icon style={style} />;
  if (!business) return fallback;
  const all = loadedIcons();
  if (all) {
    const Loaded = all.get(name);
    return Loaded ? <Loaded style={style} /> : fallback;
  }
  return (
    <Suspense fallback={<AppstoreOutlined style={style} />}>
      <AnyIcon name={name} style={style} fallback={fallback} />
    </Suspense>
  );
}

/**
 * The badge of a menu without an icon: its title's first character in an icon-sized square, so a
 * collapsed sider still shows something to find it by (and the titles stay aligned).
 */
export function MenuInitial({ title }: { title: string }) {
  const first = [...title.trim()][0] ?? '?';
  return (
    // Inline sizes: the collapsed menu gives its icons a 40 px line height, which would push the
    // character out of its badge.
    <span className="anticon menu-initial" aria-hidden="true" data-testid="menu-initial" style={{ lineHeight: '16px', fontSize: 11 }}>
      <span style={{ lineHeight: '16px' }}>{first.toUpperCase()}</span>
    </span>
  );
}
