import { Drawer } from 'antd';
import type { TProviderName } from '@tessera/core/contracts/authorization';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { PermissionPanel } from '../../authorization/components/PermissionPanel.tsx';
import '../i18n.ts';

export interface PermissionsTarget {
  providerName: TProviderName;
  providerKey: string;
  /** Shown in the title: the role, user or unit name. */
  name: string;
}

/**
 * The granted permissions and menus of a role, a user or a unit: the authorization page's
 * searchable checkbox tree (inherited grants marked), opened from the role, user or unit lists.
 * Closing with unsaved changes asks first.
 */
export function PermissionsDrawer({ target, onClose }: { target: PermissionsTarget | null; onClose(): void }) {
  const { t } = useTranslation('identity');
  const client = useQueryClient();
  const dirty = useRef(false);
  const onDirtyChange = useCallback((d: boolean) => {
    dirty.current = d;
  }, []);
  const close = () => {
    const done = () => {
      dirty.current = false;
      // Role and unit lists show grant counts.
      void client.invalidateQueries({ queryKey: ['identity'] });
      onClose();
    };
    if (!dirty.current) return done();
    feedback.modal?.confirm({ title: t('roles.discardTitle'), content: t('roles.discardText'), onOk: done });
  };
  return (
    <Drawer open={!!target} width={760} title={target ? t('roles.permissionsTitle', { role: target.name }) : ''} onClose={close} destroyOnHidden>
      {target && <PermissionPanel providerName={target.providerName} providerKey={target.providerKey} onDirtyChange={onDirtyChange} />}
    </Drawer>
  );
}
