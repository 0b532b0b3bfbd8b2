import { Link } from 'react-router';
import { DASHBOARD_PATH } from '../routes/route-table.ts';

/** The product logo; the name hides when the sider is collapsed or space is short. */
export function Logo({ compact = false, color }: { compact?: boolean; color?: string }) {
  return (
    <Link to={DASHBOARD_PATH} className="shell-logo" aria-label="Tessera" style={{ color }}>
      <img src="./favicon.svg" alt="" width={28} height={28} />
      {compact ? null : <span className="shell-logo-text">Tessera</span>}
    </Link>
  );
}
