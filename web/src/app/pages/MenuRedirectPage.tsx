import { App, Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { findByMenuId, firstParamsPath } from '../menus/menu-model.ts';
import { useShellMenus } from '../menus/menus-api.ts';
import ErrorPage from './ErrorPage.tsx';

/** spec §2 /menu/:menuId: goes to the menu's first /params/ path; an unknown menu warns (contact the administrator). */
export default function MenuRedirectPage() {
  const { menuId = '' } = useParams();
  const { t } = useTranslation('shell');
  const { message } = App.useApp();
  const menus = useShellMenus();
  const node = findByMenuId(menus.businessNodes, menuId);
  const target = node ? firstParamsPath(node) : null;
  const loading = menus.isLoading;
  useEffect(() => {
    if (!loading && !target) message.warning(t('error.menuNotFound'));
  }, [loading, target, message, t]);
  if (target) return <Navigate to={target} replace />;
  if (loading) return <Spin style={{ display: 'block', margin: 48 }} />;
  return <ErrorPage code={404} />;
}
