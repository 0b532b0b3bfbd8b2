import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { DASHBOARD_PATH } from '../routes/route-table.ts';

/** spec §2 refresh/reload helpers: go back to `?path=` (or the previous page), mounting it afresh. */
export default function RefreshPage() {
  const navigate = useNavigate();
  const { search } = useLocation();
  useEffect(() => {
    const target = new URLSearchParams(search).get('path');
    if (target && target.startsWith('/') && !target.startsWith('//')) navigate(target, { replace: true });
    else if (window.history.length > 1) navigate(-1);
    else navigate(DASHBOARD_PATH, { replace: true });
  }, [navigate, search]);
  return null;
}
