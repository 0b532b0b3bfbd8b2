import {
  ApartmentOutlined,
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
import { lazy, Suspense, type ComponentType } from 'react';

/** The icons the system menus and routes use, by name (a fixed set keeps the layout chunk small). */
const SYSTEM_ICONS: Record<string, ComponentType> = {
  ApartmentOutlined,
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
};

// Business menus may use any icon of the set: that registry is large, so it loads on its own.
const AnyIcon = lazy(() => import('../../modules/business-menus/components/MenuIcon.tsx').then((m) => ({ default: m.MenuIcon })));

export function MenuIcon({ name, business = false }: { name?: string | null; business?: boolean }) {
  if (!name) return null;
  const Icon = SYSTEM_ICONS[name];
  if (Icon) return <Icon />;
  if (!business) return null;
  return (
    <Suspense fallback={<AppstoreOutlined />}>
      <AnyIcon name={name} />
    </Suspense>
  );
}
