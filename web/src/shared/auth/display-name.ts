import { personDisplayName } from '@tessera/core/helpers/person-name';
import { useTranslation } from 'react-i18next';
import { useSession } from './session.ts';

/** The signed-in user's full name in the interface language's order (张三; Ann Lee), '' when signed out. */
export function useDisplayName(): string {
  const { i18n } = useTranslation();
  const user = useSession((s) => s.user);
  return user ? personDisplayName(user, i18n.language) : '';
}
