import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { personDisplayName } from '@tessera/core/helpers/person-name';
import type { TOrganizationUnitNode } from '@tessera/core/contracts/identity';
import { Button, Checkbox, Dropdown, Select, Space, TreeSelect, Typography } from 'antd';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRoles, useUnitTree, useUserSearch } from '../api/workflow-lookups.ts';
import { ASSIGNEE_KINDS, type WfAssignee, type WfAssigneeKind } from './graph-model.ts';
import type { NameBook } from './node-summary.ts';
import type { PageField } from './page-fields.ts';

const newAssignee = (kind: WfAssigneeKind): WfAssignee => {
  switch (kind) {
    case 'user':
      return { kind, userIds: [] };
    case 'role':
      return { kind, roleIds: [] };
    case 'unit':
      return { kind, unitIds: [] };
    case 'initiatorLeader':
      return { kind, level: 1 };
    case 'formField':
      return { kind, controlCode: '' };
    default:
      return { kind } as WfAssignee;
  }
};

type UnitOption = { value: string; title: string; children: UnitOption[] };
const toTree = (units: TOrganizationUnitNode[]): UnitOption[] => units.map((u) => ({ value: u.id, title: u.displayName, children: toTree(u.children) }));

/** Users: a searchable multi-select (names of already chosen users come from the name book). */
function UserSelect({ value, onChange, names, label, disabled }: { value: string[]; onChange(ids: string[]): void; names: NameBook; label: string; disabled?: boolean }) {
  const { i18n } = useTranslation();
  const [search, setSearch] = useState('');
  const users = useUserSearch(useDeferredValue(search.trim()));
  const options = useMemo(() => {
    const found = (users.data?.items ?? []).map((u) => ({ value: u.id, label: `${personDisplayName(u, i18n.language)} (${u.userName})` }));
    const known = new Set(found.map((o) => o.value));
    return [...value.filter((id) => !known.has(id)).map((id) => ({ value: id, label: names.user(id) })), ...found];
  }, [users.data, value, names, i18n.language]);
  return (
    <Select
      mode="multiple"
      value={value}
      onChange={onChange}
      options={options}
      filterOption={false}
      showSearch={{ onSearch: setSearch, filterOption: false }}
      loading={users.isFetching}
      placeholder={label}
      aria-label={label}
      style={{ width: '100%' }}
      disabled={disabled}
      data-testid="assignee-users"
    />
  );
}

/** One user (the admin an empty assignee list goes to, the escalation target). */
export function SingleUserSelect({ value, onChange, names, label }: { value?: string; onChange(id: string | undefined): void; names: NameBook; label: string }) {
  return <UserSelect value={value ? [value] : []} onChange={(ids) => onChange(ids.at(-1))} names={names} label={label} />;
}

/**
 * Assignee rules of an approval node (or CC recipients): users, roles, units, the initiator's
 * N-th leader, the initiator, a picker control of the form, chosen at submit.
 */
export function AssigneesEditor({ value, onChange, names, fields, label }: { value: WfAssignee[]; onChange(next: WfAssignee[]): void; names: NameBook; fields: PageField[]; label: string }) {
  const { t } = useTranslation('workflow');
  const roles = useRoles();
  const units = useUnitTree();
  const unitTree = useMemo(() => toTree(units.data ?? []), [units.data]);
  const pickers = fields.filter((f) => f.isMaster && f.isPicker);
  const set = (i: number, next: WfAssignee) => onChange(value.map((a, j) => (j === i ? next : a)));

  return (
    <div className="wf-assignees" role="group" aria-label={label}>
      {value.map((a, i) => (
        <div className="wf-assignee" key={i} data-testid={`assignee-${i}`}>
          <Space.Compact style={{ width: '100%' }}>
            <Select<WfAssigneeKind>
              value={a.kind}
              onChange={(k) => set(i, newAssignee(k))}
              options={ASSIGNEE_KINDS.map((k) => ({ value: k, label: t(`props.kinds.${k}`) }))}
              aria-label={t('props.assigneeKind')}
              style={{ flex: 1 }}
              popupMatchSelectWidth={false}
            />
            <Button icon={<DeleteOutlined />} onClick={() => onChange(value.filter((_, j) => j !== i))} aria-label={t('props.removeAssignee')} />
          </Space.Compact>
          {a.kind === 'user' && <UserSelect value={a.userIds} onChange={(ids) => set(i, { ...a, userIds: ids })} names={names} label={t('props.pickUsers')} />}
          {a.kind === 'role' && (
            <Select
              mode="multiple"
              value={a.roleIds}
              onChange={(ids: string[]) => set(i, { ...a, roleIds: ids })}
              options={(roles.data?.items ?? []).map((r) => ({ value: r.id, label: r.name }))}
              showSearch={{ optionFilterProp: 'label' }}
              loading={roles.isFetching}
              placeholder={t('props.pickRoles')}
              aria-label={t('props.pickRoles')}
              style={{ width: '100%' }}
              data-testid="assignee-roles"
            />
          )}
          {a.kind === 'unit' && (
            <>
              <TreeSelect
                multiple
                treeCheckable={false}
                value={a.unitIds}
                onChange={(ids: string[]) => set(i, { ...a, unitIds: ids })}
                treeData={unitTree}
                treeDefaultExpandAll
                showSearch
                treeNodeFilterProp="title"
                placeholder={t('props.pickUnits')}
                aria-label={t('props.pickUnits')}
                style={{ width: '100%' }}
              />
              <Checkbox checked={Boolean(a.includeSubUnits)} onChange={(e) => set(i, { ...a, includeSubUnits: e.target.checked })}>
                {t('props.includeSubUnits')}
              </Checkbox>
            </>
          )}
          {a.kind === 'initiatorLeader' && (
            <Select
              value={a.level}
              onChange={(level: number) => set(i, { ...a, level })}
              options={Array.from({ length: 10 }, (_, k) => ({ value: k + 1, label: t('props.leaderLevelOption', { level: k + 1 }) }))}
              aria-label={t('props.leaderLevel')}
              style={{ width: '100%' }}
            />
          )}
          {a.kind === 'formField' && (
            <Select
              value={a.controlCode || undefined}
              onChange={(code: string) => set(i, { ...a, controlCode: code })}
              options={pickers.map((f) => ({ value: f.ref, label: `${f.title} (${f.ref})` }))}
              placeholder={t('props.formField')}
              aria-label={t('props.formField')}
              notFoundContent={<Typography.Text type="secondary">{t('props.noControls')}</Typography.Text>}
              style={{ width: '100%' }}
            />
          )}
        </div>
      ))}
      <Dropdown
        trigger={['click']}
        menu={{ items: ASSIGNEE_KINDS.map((k) => ({ key: k, label: t(`props.kinds.${k}`) })), onClick: ({ key }) => onChange([...value, newAssignee(key as WfAssigneeKind)]) }}
      >
        <Button icon={<PlusOutlined />} block type="dashed" data-testid="add-assignee">
          {t('props.addAssignee')}
        </Button>
      </Dropdown>
    </div>
  );
}
