import { Alert, Button, Empty, Input, Space, Spin, Tag, Typography } from 'antd';
import type { TProviderName } from '@tessera/core/contracts/authorization';
import { P } from '@tessera/core/contracts/permissions';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../../shared/components/Auth.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { usePermissions, useUpdatePermissions } from '../api/permissions.ts';
import { PermissionTree } from './PermissionTree.tsx';
import { buildPermissionTree, changesBetween, directGrants, relations } from './permission-tree-model.ts';
import '../i18n.ts';

/** The grant tree of one role, user or unit, with search and save. */
export function PermissionPanel({
  providerName,
  providerKey,
  onDirtyChange,
}: {
  providerName: TProviderName;
  providerKey: string;
  onDirtyChange(dirty: boolean): void;
}) {
  const { t, i18n } = useTranslation('authorization');
  const canGrant = useAccess(P.PermissionsGrant);
  const query = usePermissions(providerName, providerKey, i18n.language);
  const update = useUpdatePermissions();
  const groups = useMemo(() => (query.data ? buildPermissionTree(query.data, providerName, providerKey) : []), [query.data, providerName, providerKey]);
  const server = useMemo(() => (query.data ? directGrants(query.data, providerName, providerKey) : new Set<string>()), [query.data, providerName, providerKey]);
  const [value, setValue] = useState<Set<string>>(new Set());
  // Reset the choices when the grants differ, not when the same grants come again in another language.
  const serverKey = [...server].sort().join('\n');
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<string[]>([]);
  useEffect(() => {
    setValue(new Set(server));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [serverKey, providerName, providerKey]);
  useEffect(() => {
    setExpanded(groups.map((g) => g.key));
  }, [groups]);
  const changes = changesBetween(server, value);
  useEffect(() => onDirtyChange(changes.length > 0), [changes.length, onDirtyChange]);

  if (query.isLoading) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (query.isError || !query.data) return <Empty description={t('panel.loadFailed')} />;
  const readOnly = query.data.isReadOnly || !canGrant;
  const rel = relations(groups);
  const editable = [...rel.byName.values()].filter((n) => n.inheritedFrom.length === 0).map((n) => n.name);

  const save = async () => {
    await update.mutateAsync({ providerName, providerKey, input: { permissions: changes } });
    feedback.message?.success(t('saved'));
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12}>
      {query.data.isReadOnly && <Alert type="info" showIcon message={t('panel.adminRole')} />}
      {!query.data.isReadOnly && !canGrant && <Alert type="warning" showIcon message={t('panel.viewOnly')} />}
      {providerName !== 'R' && <Alert type="info" showIcon message={t(`panel.inheritHelp.${providerName}`)} />}
      <Space wrap>
        <Input.Search allowClear style={{ width: 280 }} placeholder={t('panel.search')} value={search} onChange={(e) => setSearch(e.target.value)} />
        <Button onClick={() => setExpanded(groups.map((g) => g.key).concat([...rel.byName.keys()]))}>{t('panel.expandAll')}</Button>
        <Button onClick={() => setExpanded([])}>{t('panel.collapseAll')}</Button>
        {!readOnly && (
          <>
            <Button onClick={() => setValue(new Set([...value, ...editable]))}>{t('panel.selectAll')}</Button>
            <Button onClick={() => setValue(new Set())}>{t('panel.selectNone')}</Button>
          </>
        )}
      </Space>
      <div style={{ maxHeight: 'calc(100vh - 360px)', minHeight: 240, overflow: 'auto', border: '1px solid rgba(5,5,5,0.06)', borderRadius: 8, padding: 8 }}>
        <PermissionTree groups={groups} value={value} onChange={setValue} search={search} expandedKeys={expanded} onExpand={setExpanded} readOnly={readOnly} />
      </div>
      {!readOnly && (
        <Space>
          <Button type="primary" onClick={save} loading={update.isPending} disabled={changes.length === 0}>
            {t('save')}
          </Button>
          <Button onClick={() => setValue(new Set(server))} disabled={changes.length === 0}>
            {t('reset')}
          </Button>
          {changes.length > 0 && <Tag color="orange">{t('panel.changes', { count: changes.length })}</Tag>}
          <Typography.Text type="secondary">{t('panel.granted', { count: value.size })}</Typography.Text>
        </Space>
      )}
    </Space>
  );
}
