import { Layout } from 'antd';
import { Outlet } from 'react-router';

/** spec §2 /vdashboard: the main view layout, the page alone without the shell around it. */
export default function ViewLayout() {
  return (
    <Layout style={{ minHeight: '100vh' }} className="view-layout">
      <Layout.Content className="standalone-content">
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}
