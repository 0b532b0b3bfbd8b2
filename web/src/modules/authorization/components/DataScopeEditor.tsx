import { DeleteOutlined, FilterOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, AutoComplete, Button, Select, Space, Table, Tag, Typography } from 'antd';
import type { TDataScope, TDataScopeKind, TScopeFilterCondition } from '@tessera/core/contracts/authorization';
import { DATA_SCOPES } from '@tessera/core/contracts/authorization';
import { P } from '@tessera/core/contracts/permissions';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { useAccess } from '../../../shared/components/Auth.tsx';
import { pickText } from '../../../shared/components/LocalizedTextInput.tsx';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useDataScopes, useUpdateDataScopes } from '../api/data-scopes.ts';
import { useDefinitionGroups } from '../api/permission-definitions.ts';
import { ScopeConditionsModal } from './ScopeConditionsModal.tsx';
import '../i18n.ts';

interface Row extends TDataScope {
  rowKey: number;
}

let nextKey = 1;
const withKeys = (items: TDataScope[]): Row[] => items.map((i) => ({ ...i, rowKey: nextKey++ }));

/** A role's data scope per business page: all / own / own unit / unit and below / custom conditions. */
export function DataScopeEditor({ roleId, readOnly }: { roleId: string; readOnly?: boolean }) {
  const { t, i18n } = useTranslation('authorization');
  const canEdit = useAccess(P.DataScopesManage) && !readOnly;
  const query = useDataScopes(roleId);
  const save = useUpdateDataScopes();
  const groups = useDefinitionGroups();
  const [rows, setRows] = useState<Row[]>([]);
  const [editing, setEditing] = useState<number | null>(null);
  useEffect(() => {
    if (query.data) setRows(withKeys(query.data.items));
  }, [query.data]);

  // Business pages known from their permission groups (Biz.<page>), offered as page keys.
  const pageOptions = useMemo(
    () =>
      (groups.data?.items ?? [])
        .filter((g) => g.name.startsWith('Biz.') && g.name !== 'Biz.Menu')
        .map((g) => ({ value: g.name.slice(4), label: `${pickText(g.displayName, i18n.language)} (${g.name.slice(4)})` })),
    [groups.data, i18n.language],
  );
  const dirty = JSON.stringify(rows.map(({ rowKey: _k, ...r }) => r)) !== JSON.stringify(query.data?.items ?? []);
  const set = (key: number, patch: Partial<TDataScope>) => setRows((r) => r.map((row) => (row.rowKey === key ? { ...row, ...patch } : row)));

  const onSave = async () => {
    try {
      const items = rows.map(({ rowKey: _k, ...r }) => ({ ...r, customFilter: r.scope === 'custom' ? r.customFilter : null }));
      await save.mutateAsync({ roleId, input: { items } });
      feedback.message?.success(t('saved'));
    } catch (err) {
      if (err instanceof ApiError) {
        const detail = err.validationErrors.map((v) => v.message).join('; ');
        feedback.message?.error(detail ? `${err.message}: ${detail}` : err.message);
      }
    }
  };

  const editingRow = rows.find((r) => r.rowKey === editing);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Alert type="info" showIcon message={t('scopes.help')} />
      <Table<Row>
        size="small"
        rowKey="rowKey"
        loading={query.isLoading}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: t('scopes.empty') }}
        columns={[
          {
            title: t('scopes.page'),
            dataIndex: 'pageKey',
            render: (_, row) => (
              <AutoComplete
                style={{ width: '100%', minWidth: 200 }}
                value={row.pageKey}
                options={pageOptions}
                disabled={!canEdit}
                placeholder={t('scopes.pagePlaceholder')}
                aria-label={t('scopes.page')}
                onChange={(v: string) => set(row.rowKey, { pageKey: v.trim() })}
                filterOption={(input, option) => String(option?.label ?? '').toLowerCase().includes(input.toLowerCase())}
                status={row.pageKey && !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(row.pageKey) ? 'error' : undefined}
              />
            ),
          },
          {
            title: t('scopes.scope'),
            dataIndex: 'scope',
            width: 200,
            render: (_, row) => (
              <Select<TDataScopeKind>
                style={{ width: 180 }}
                value={row.scope}
                disabled={!canEdit}
                aria-label={t('scopes.scope')}
                onChange={(scope) => set(row.rowKey, { scope, customFilter: scope === 'custom' ? (row.customFilter ?? []) : null })}
                options={DATA_SCOPES.map((s) => ({ value: s, label: t(`scopes.kinds.${s}`) }))}
              />
            ),
          },
          {
            title: t('scopes.conditions'),
            width: 200,
            render: (_, row) =>
              row.scope === 'custom' ? (
                <Button size="small" icon={<FilterOutlined />} disabled={!canEdit} onClick={() => setEditing(row.rowKey)} danger={!row.customFilter?.length}>
                  {t('scopes.conditionCount', { count: row.customFilter?.length ?? 0 })}
                </Button>
              ) : (
                <Typography.Text type="secondary">—</Typography.Text>
              ),
          },
          {
            width: 56,
            render: (_, row) => (
              <Button type="text" danger icon={<DeleteOutlined />} disabled={!canEdit} aria-label={t('scopes.remove')} onClick={() => setRows((r) => r.filter((x) => x.rowKey !== row.rowKey))} />
            ),
          },
        ]}
      />
      {canEdit && (
        <Space>
          <Button icon={<PlusOutlined />} onClick={() => setRows((r) => [...r, { pageKey: '', scope: 'own', customFilter: null, rowKey: nextKey++ }])}>
            {t('scopes.add')}
          </Button>
          <Button type="primary" onClick={onSave} loading={save.isPending} disabled={!dirty}>
            {t('save')}
          </Button>
          <Button onClick={() => setRows(withKeys(query.data?.items ?? []))} disabled={!dirty}>
            {t('reset')}
          </Button>
          {dirty && <Tag color="orange">{t('unsaved')}</Tag>}
        </Space>
      )}
      <ScopeConditionsModal
        open={editing !== null}
        value={(editingRow?.customFilter ?? []) as TScopeFilterCondition[]}
        onCancel={() => setEditing(null)}
        onOk={(next) => {
          if (editing !== null) set(editing, { customFilter: next });
          setEditing(null);
        }}
      />
    </Space>
  );
}
