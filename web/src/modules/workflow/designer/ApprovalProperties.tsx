import { Checkbox, Divider, InputNumber, Radio, Select, Space, Switch, Table, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AssigneesEditor, SingleUserSelect } from './AssigneesEditor.tsx';
import { ACTION_KEYS, APPROVAL_MODES, EMPTY_ASSIGNEE_POLICIES, FIELD_PERMISSIONS, RETURN_TARGETS, TIMEOUT_ACTIONS, type WfNodeOf } from './graph-model.ts';
import type { NameBook } from './node-summary.ts';
import type { PageField } from './page-fields.ts';

type Config = WfNodeOf<'approval'>['config'];
type Permission = (typeof FIELD_PERMISSIONS)[number];

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="wf-field">
      <div className="wf-field-label">{label}</div>
      {children}
    </div>
  );
}

/** The approval node's settings: approvers and mode, field permissions, actions and timeout. */
export function ApprovalProperties({ config, onChange, names, fields }: { config: Config; onChange(patch: Partial<Config>, mergeKey?: string): void; names: NameBook; fields: PageField[] }) {
  const { t } = useTranslation('workflow');
  const perms = config.fieldPermissions;
  const setAll = (p: Permission) => onChange({ fieldPermissions: Object.fromEntries(fields.map((f) => [f.ref, p])) });
  const timeout = config.timeout;

  const assignees = (
    <>
      <Field label={t('props.assignees')}>
        <AssigneesEditor value={config.assignees} onChange={(assignees) => onChange({ assignees })} names={names} fields={fields} label={t('props.assignees')} />
      </Field>
      <Field label={t('props.mode')}>
        <Radio.Group value={config.mode} onChange={(e) => onChange({ mode: e.target.value, ...(e.target.value === 'vote' && !config.votePassPercent ? { votePassPercent: 50 } : {}) })} className="wf-radio-column">
          {APPROVAL_MODES.map((m) => (
            <Radio key={m} value={m}>
              {t(`props.modes.${m}`)}
            </Radio>
          ))}
        </Radio.Group>
        {config.mode === 'vote' && (
          <InputNumber
            min={1}
            max={100}
            value={config.votePassPercent}
            onChange={(v) => onChange({ votePassPercent: v ?? undefined }, 'vote')}
            addonBefore={t('props.votePassPercent')}
            style={{ width: '100%', marginTop: 8 }}
            aria-label={t('props.votePassPercent')}
          />
        )}
      </Field>
      <Field label={t('props.emptyPolicy')}>
        <Select
          value={config.emptyAssignee.policy}
          onChange={(policy) => onChange({ emptyAssignee: { ...config.emptyAssignee, policy } })}
          options={EMPTY_ASSIGNEE_POLICIES.map((p) => ({ value: p, label: t(`props.emptyPolicies.${p}`) }))}
          style={{ width: '100%' }}
          aria-label={t('props.emptyPolicy')}
        />
        {config.emptyAssignee.policy === 'toAdmin' && (
          <div style={{ marginTop: 8 }}>
            <SingleUserSelect value={config.emptyAssignee.adminUserId} onChange={(id) => onChange({ emptyAssignee: { policy: 'toAdmin', ...(id ? { adminUserId: id } : {}) } })} names={names} label={t('props.emptyAdmin')} />
          </div>
        )}
      </Field>
      <Field label={t('props.autoApprove')}>
        <Checkbox checked={config.autoApprove.ifApprovedBefore} onChange={(e) => onChange({ autoApprove: { ...config.autoApprove, ifApprovedBefore: e.target.checked } })}>
          {t('props.ifApprovedBefore')}
        </Checkbox>
        <Checkbox checked={config.autoApprove.ifInitiator} onChange={(e) => onChange({ autoApprove: { ...config.autoApprove, ifInitiator: e.target.checked } })}>
          {t('props.ifInitiator')}
        </Checkbox>
      </Field>
    </>
  );

  const fieldTable = (
    <>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('props.fieldPermissionsHint')}
      </Typography.Paragraph>
      {fields.length > 0 && (
        <Space size={4} style={{ marginBottom: 8 }} wrap>
          <Typography.Text type="secondary">{t('props.setAll')}</Typography.Text>
          {FIELD_PERMISSIONS.map((p) => (
            <a key={p} onClick={() => setAll(p)} role="button">
              {t(`props.permissions.${p}`)}
            </a>
          ))}
        </Space>
      )}
      <Table<PageField>
        size="small"
        rowKey="ref"
        pagination={false}
        dataSource={fields}
        locale={{ emptyText: t('props.noControls') }}
        columns={[
          {
            title: t('props.field'),
            key: 'field',
            render: (_, f) => (
              <span className="wf-field-name">
                {f.viewTitle ? <Typography.Text type="secondary">{f.viewTitle} · </Typography.Text> : null}
                {f.title}
              </span>
            ),
          },
          {
            title: '',
            key: 'perm',
            width: 170,
            render: (_, f) => (
              <Radio.Group
                size="small"
                optionType="button"
                value={perms[f.ref] ?? 'readonly'}
                onChange={(e) => onChange({ fieldPermissions: { ...perms, [f.ref]: e.target.value } })}
                options={FIELD_PERMISSIONS.map((p) => ({ value: p, label: t(`props.permissions.${p}`) }))}
                aria-label={f.title}
              />
            ),
          },
        ]}
      />
    </>
  );

  const actions = (
    <>
      <Field label={t('props.actions')}>
        <Checkbox checked disabled>
          {t('props.approveAlways')}
        </Checkbox>
        <div className="wf-checks">
          {ACTION_KEYS.map((k) => (
            <Checkbox key={k} checked={config.actions[k]} onChange={(e) => onChange({ actions: { ...config.actions, [k]: e.target.checked } })}>
              {t(`props.actionNames.${k}`)}
            </Checkbox>
          ))}
        </div>
      </Field>
      {config.actions.return && (
        <Field label={t('props.returnTo')}>
          <Select
            value={config.returnTo}
            onChange={(returnTo) => onChange({ returnTo })}
            options={RETURN_TARGETS.map((r) => ({ value: r, label: t(`props.returnTargets.${r}`) }))}
            style={{ width: '100%' }}
            aria-label={t('props.returnTo')}
          />
        </Field>
      )}
      <Checkbox checked={config.commentRequiredOnReject} onChange={(e) => onChange({ commentRequiredOnReject: e.target.checked })}>
        {t('props.commentRequiredOnReject')}
      </Checkbox>
      <Divider style={{ margin: '12px 0' }} />
      <Field label={t('props.timeout')}>
        <Space size={8}>
          <Switch
            checked={Boolean(timeout)}
            onChange={(on) => onChange({ timeout: on ? { afterMinutes: 1440, then: 'none', remindEveryMinutes: 240, remindTimes: 3 } : undefined })}
            aria-label={t('props.timeoutOn')}
          />
          {t('props.timeoutOn')}
        </Space>
        {timeout && (
          <div className="wf-timeout">
            <InputNumber min={1} max={525600} value={timeout.afterMinutes} onChange={(v) => onChange({ timeout: { ...timeout, afterMinutes: v ?? 1 } }, 'timeout')} addonBefore={t('props.afterMinutes')} style={{ width: '100%' }} />
            <InputNumber
              min={1}
              max={525600}
              value={timeout.remindEveryMinutes}
              onChange={(v) => onChange({ timeout: { ...timeout, remindEveryMinutes: v ?? undefined } }, 'timeout')}
              addonBefore={t('props.remindEveryMinutes')}
              style={{ width: '100%' }}
            />
            <InputNumber min={1} max={100} value={timeout.remindTimes} onChange={(v) => onChange({ timeout: { ...timeout, remindTimes: v ?? undefined } }, 'timeout')} addonBefore={t('props.remindTimes')} style={{ width: '100%' }} />
            <Select
              value={timeout.then}
              onChange={(then) => onChange({ timeout: { ...timeout, then } })}
              options={TIMEOUT_ACTIONS.map((a) => ({ value: a, label: t(`props.timeoutActions.${a}`) }))}
              prefix={t('props.then')}
              style={{ width: '100%' }}
              aria-label={t('props.then')}
            />
            {timeout.then === 'escalate' && (
              <SingleUserSelect value={timeout.escalateToUserId} onChange={(id) => onChange({ timeout: { ...timeout, escalateToUserId: id } })} names={names} label={t('props.escalateTo')} />
            )}
          </div>
        )}
      </Field>
    </>
  );

  return (
    <Tabs
      size="small"
      items={[
        { key: 'assignees', label: t('props.assignees'), children: assignees },
        { key: 'fields', label: t('props.fieldPermissions'), children: fieldTable },
        { key: 'actions', label: t('props.actions'), children: actions },
      ]}
    />
  );
}

export { Field };
