import { EyeInvisibleOutlined, EyeOutlined, LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, theme } from 'antd';
import { useEffect, useState, type CSSProperties, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { redirectTargetFor, safeRedirect, signIn, signInPageShown } from '../../../shared/auth/session.ts';
import { changeLocale, currentLocale, LOCALE_LABELS, SUPPORTED_LOCALES } from '../../../shared/i18n/i18n.ts';
import { loadServerDictionary, resetServerDictionary } from '../../../shared/i18n/server-dictionary.ts';
import { rootMessages } from '../../../shared/ui/feedback.tsx';
import { useLogin } from '../api/auth.ts';
import { RegisterLink } from '../components/RegisterLink.tsx';

const DEFAULT_TARGET = '/dashboard/console';

interface LoginForm {
  username?: string;
  password?: string;
}

/**
 * The app's warm-up around signing in (router.tsx): `intent` when a sign-in is about to happen (the
 * password typed, the form sent) loads the target's chunks while the password is checked;
 * `signedIn` asks for the shell's first data before the shell renders.
 */
export interface SignInWarmUp {
  intent(target: string): void;
  signedIn(target: string): void;
}

/**
 * spec §5: placeholders and the "fill in complete information" message. Kept light on purpose (bench/web: the login route's JavaScript budget): plain form and card
 * markup with antd inputs and buttons, messages through the root's message holder.
 */
export default function LoginPage({ warmUp }: { warmUp?: SignInWarmUp }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [values, setValues] = useState<LoginForm>({});
  const [showPassword, setShowPassword] = useState(false);
  // Native inputs styled with the theme's tokens: antd's Input brings its whole form library along.
  const inputVars = {
    '--login-border': token.colorBorder,
    '--login-primary': token.colorPrimary,
    '--login-focus': token.colorPrimaryBg,
    '--login-text': token.colorText,
    '--login-placeholder': token.colorTextPlaceholder,
    '--login-icon': token.colorTextTertiary,
    '--login-radius': `${token.borderRadiusLG}px`,
  } as CSSProperties;
  const message = {
    warning: (text: string) => rootMessages()?.warning(text),
    success: (text: string) => rootMessages()?.success(text),
    error: (text: string) => rootMessages()?.error(text),
  };
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const login = useLogin();
  const redirect = params.get('redirect');
  // The page asked for, for warming up; whether the one who signs in goes there is decided after.
  const requested = safeRedirect(redirect) ?? DEFAULT_TARGET;
  useEffect(signInPageShown, []);

  const onFinish = async (event: FormEvent) => {
    event.preventDefault();
    if (!values.username?.trim() || !values.password) {
      message.warning(t('login.incomplete'));
      return;
    }
    warmUp?.intent(requested);
    try {
      const result = await login.mutateAsync({ username: values.username.trim(), password: values.password });
      // spec §2's redirect is the page of the user who was sent to sign in, never of another user.
      const target = redirectTargetFor(result.user.id, redirect, DEFAULT_TARGET);
      signIn(result);
      warmUp?.signedIn(target);
      // Texts that need a signed-in caller come with the dictionary now.
      resetServerDictionary();
      void loadServerDictionary(currentLocale());
      message.success(t('login.success'));
      navigate(target, { replace: true });
    } catch (err) {
      message.error((err as Error).message);
    }
  };

  return (
    <div className="login-page">
      <div className="login-card" style={{ background: token.colorBgContainer, borderRadius: token.borderRadiusLG, color: token.colorText }}>
        <div className="login-brand">
          <img src="./favicon.svg" alt="" width={40} height={40} />
          <div>
            <h3 className="login-title">Tessera</h3>
            <span style={{ color: token.colorTextSecondary }}>{t('login.subtitle')}</span>
          </div>
        </div>
        <form onSubmit={(e) => void onFinish(e)} aria-label={t('login.title')} className="login-form" noValidate>
          <label className="login-field">
            <span>{t('login.username')}</span>
            <span className="login-input" style={inputVars}>
              <UserOutlined />
              <input
                placeholder={t('login.usernamePlaceholder')}
                autoComplete="username"
                autoFocus
                value={values.username ?? ''}
                onChange={(e) => setValues((v) => ({ ...v, username: e.target.value }))}
              />
            </span>
          </label>
          <label className="login-field">
            <span>{t('login.password')}</span>
            <span className="login-input" style={inputVars}>
              <LockOutlined />
              <input
                type={showPassword ? 'text' : 'password'}
                placeholder={t('login.passwordPlaceholder')}
                autoComplete="current-password"
                value={values.password ?? ''}
                onChange={(e) => {
                  // Typing a password announces a sign-in: the console's chunks load meanwhile.
                  if (!values.password) warmUp?.intent(requested);
                  setValues((v) => ({ ...v, password: e.target.value }));
                }}
              />
              <button
                type="button"
                className="login-eye"
                aria-label={t(showPassword ? 'login.hidePassword' : 'login.showPassword')}
                aria-pressed={showPassword}
                onClick={() => setShowPassword((v) => !v)}
              >
                {showPassword ? <EyeOutlined /> : <EyeInvisibleOutlined />}
              </button>
            </span>
          </label>
          <Button type="primary" htmlType="submit" size="large" block loading={login.isPending}>
            {t('login.submit')}
          </Button>
        </form>
        <RegisterLink />
        <nav className="login-languages" aria-label={t('login.language')}>
          {SUPPORTED_LOCALES.map((locale) => (
            <Button key={locale} size="small" type={locale === currentLocale() ? 'link' : 'text'} lang={locale} onClick={() => void changeLocale(locale)} aria-pressed={locale === currentLocale()}>
              {LOCALE_LABELS[locale]}
            </Button>
          ))}
        </nav>
      </div>
    </div>
  );
}
