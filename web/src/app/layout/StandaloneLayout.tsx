import { HomeOutlined } from '@ant-design/icons';
import { Button, Layout, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { usePageTitle } from '../routes/title.ts';
import { DASHBOARD_PATH } from '../routes/route-table.ts';
import { Logo } from './Logo.tsx';

/** Standalone pages (designers, chart and project areas, TV sign-in): no sider or tabs, a slim bar home. */
export default function StandaloneLayout({ bar = true }: { bar?: boolean }) {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const title = usePageTitle(pathname);
  const navigate = useNavigate();
  const { token } = theme.useToken();
  return (
    <Layout style={{ minHeight: '100vh' }} className="standalone-layout">
      {bar ? (
        <header className="standalone-bar" style={{ background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
          <Logo color={token.colorText} />
          <Typography.Text strong className="standalone-title">
            {title}
          </Typography.Text>
          <Button icon={<HomeOutlined />} onClick={() => navigate(DASHBOARD_PATH)}>
            {t('error.backHome')}
          </Button>
        </header>
      ) : null}
      <Layout.Content className="standalone-content">
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}
