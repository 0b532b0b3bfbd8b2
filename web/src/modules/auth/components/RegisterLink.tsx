import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRegistrationOptions } from '../api/registration.ts';
import '../i18n.ts';

/** The login page's way to registration, shown only while registration is open (system settings). */
export function RegisterLink() {
  const { t } = useTranslation('auth');
  const options = useRegistrationOptions();
  if (!options.data?.isEnabled) return null;
  return (
    <div style={{ textAlign: 'center', marginTop: 12 }}>
      <Link to="/register">{t('register.link')}</Link>
    </div>
  );
}
