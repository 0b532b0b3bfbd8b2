import { ApiOutlined, HomeOutlined, KeyOutlined, LogoutOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import { useDisplayName } from '../../shared/auth/display-name.ts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Avatar, Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { logoutRequest } from '../../modules/auth/api/auth.ts';
import { clearSession, useSession } from '../../shared/auth/session.ts';
import { resetTabsInMemory } from '../tabs/tabs-store.ts';
import { DASHBOARD_PATH } from '../routes/route-table.ts';
import { useLayout } from './layout-store.ts';

/** The signed-in person's API keys (issue 29), beside the password in the user menu. */
const MY_API_KEYS_PATH = '/account/apiKeys';

/** spec §2 user menu: My home, Setting, reset password, API keys, Log out (hover on desktop, click on mobile). */
export function UserMenu({ mobile, color }: { mobile: boolean; color?: string }) {
  const { t } = useTranslation('shell');
  const user = useSession((s) => s.user);
  const displayName = useDisplayName();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const client = useQueryClient();
  const setSettingsOpen = useLayout((s) => s.setSettingsOpen);
  const setPasswordOpen = useLayout((s) => s.setPasswordOpen);

  // spec §2: logout asks first; tabs and personal settings stay for this user's next sign-in.
  const logout = () =>
    modal.confirm({
      title: t('user.logoutTitle'),
      content: t('user.logoutContent'),
      okButtonProps: { 'data-testid': 'logout-confirm' } as Record<string, string>,
      onOk: async () => {
        await logoutRequest().catch(() => undefined);
        // To login first, so the signed-in pages never render for nobody.
        navigate('/login', { replace: true });
        clearSession();
        resetTabsInMemory();
        client.clear();
      },
    });

  return (
    <Dropdown
      trigger={mobile ? ['click'] : ['hover']}
      placement="bottomRight"
      menu={{
        items: [
          { key: 'home', icon: <HomeOutlined />, label: t('user.myHome') },
          { key: 'setting', icon: <SettingOutlined />, label: t('user.setting') },
          { key: 'password', icon: <KeyOutlined />, label: t('user.resetPassword') },
          { key: 'apiKeys', icon: <ApiOutlined />, label: t('user.apiKeys') },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined />, label: t('user.logout'), danger: true },
        ],
        onClick: ({ key }) => {
          if (key === 'home') navigate(DASHBOARD_PATH);
          if (key === 'setting') setSettingsOpen(true);
          if (key === 'password') setPasswordOpen(true);
          if (key === 'apiKeys') navigate(MY_API_KEYS_PATH);
          if (key === 'logout') logout();
        },
      }}
    >
      <Button type="text" aria-label={t('header.user')} data-testid="user-menu" style={{ color, paddingInline: 8 }}>
        <Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined />} />
        <span className="hide-on-mobile">{displayName}</span>
      </Button>
    </Dropdown>
  );
}
