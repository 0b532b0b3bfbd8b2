import { Navigate, useLocation, useParams } from 'react-router';

/** spec §2 redirect/:route*: replaces the history entry with /:route (re-entering a page afresh). */
export default function RedirectPage() {
  const params = useParams();
  const { search } = useLocation();
  return <Navigate to={`/${params['*'] ?? ''}${search}`} replace />;
}
