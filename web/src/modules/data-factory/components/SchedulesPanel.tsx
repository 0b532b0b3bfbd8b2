import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Form, Input, Modal, Select, Space, Switch, Table, Tag, Tooltip, Typography, type ButtonProps } from 'antd';
import { cronRuns, DATA_FACTORY_LIMITS, type TProcedure, type TProcedureSchedule } from '@tessera/core/contracts/data-factory';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { errorText, serverError } from '../../data-sources/api/server-error.ts';
import { useDeleteSchedule, useProcedureSchedules, useSaveSchedule } from '../api/data-factory.ts';
import { textOfValue, valueFromText } from './factory-values.ts';
import { ParameterInputs } from './ParameterInputs.tsx';
import { browserTimeZone, describeCron, timeIn, timeZones } from './schedule-text.ts';
import { ProblemAlert, type Problem } from './ProblemAlert.tsx';
import '../i18n.ts';

const PRESETS = [
  { key: 'presetHourly', cron: '0 * * * *' },
  { key: 'presetDaily', cron: '0 2 * * *' },
  { key: 'presetWeekdays', cron: '30 8 * * 1-5' },
  { key: 'presetWeekly', cron: '0 9 * * 1' },
  { key: 'presetMonthly', cron: '0 1 1 * *' },
] as const;

type Editing = { kind: 'create' } | { kind: 'edit'; schedule: TProcedureSchedule };

/** A procedure's schedules: when each runs next, how its last run went; add, change, switch off, delete. */
export function SchedulesPanel({ procedure }: { procedure: TProcedure }) {
  const { t, i18n } = useTranslation('dataFactory');
  const schedules = useProcedureSchedules(procedure.id);
  const save = useSaveSchedule();
  const remove = useDeleteSchedule();
  const [editing, setEditing] = useState<Editing | null>(null);
  const items = schedules.data?.items ?? [];

  const toggle = async (s: TProcedureSchedule, enabled: boolean) => {
    try {
      await save.mutateAsync({ procedureId: procedure.id, id: s.id, input: { cron: s.cron, timeZone: s.timeZone, parameters: s.parameters, description: s.description, enabled, concurrencyStamp: s.concurrencyStamp } });
    } catch (err) {
      feedback.message?.error(err instanceof ApiError && err.status === 409 ? t('schedules.conflict') : errorText(err));
    }
  };
  const confirmDelete = (s: TProcedureSchedule) =>
    feedback.modal?.confirm({
      title: t('schedules.confirmDelete'),
      content: t('schedules.confirmDeleteText'),
      okText: t('schedules.delete'),
      cancelText: t('schedules.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'factory-schedule-delete-ok' } as ButtonProps,
      onOk: async () => {
        try {
          await remove.mutateAsync({ procedureId: procedure.id, id: s.id });
          feedback.message?.success(t('schedules.deleted'));
        } catch (err) {
          feedback.message?.error(errorText(err));
        }
      },
    });
  const create = () => setEditing({ kind: 'create' });

  return (
    <Flex vertical gap={12}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Text type="secondary" style={{ flex: 1, minWidth: 240 }}>
          {t('schedules.hint')}
        </Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={create} disabled={items.length >= DATA_FACTORY_LIMITS.schedules} data-testid="factory-schedule-create">
          {t('schedules.create')}
        </Button>
      </Flex>
      <Table<TProcedureSchedule>
        size="small"
        rowKey="id"
        loading={schedules.isLoading}
        dataSource={items}
        pagination={false}
        scroll={{ x: 980 }}
        data-testid="factory-schedules"
        locale={{
          emptyText: schedules.isLoading ? (
            <span />
          ) : (
            <Empty
              description={
                <>
                  <div>{t('schedules.empty')}</div>
                  <Typography.Text type="secondary">{t('schedules.emptyHint')}</Typography.Text>
                </>
              }
            >
              <Button icon={<PlusOutlined />} onClick={create}>
                {t('schedules.create')}
              </Button>
            </Empty>
          ),
        }}
        onRow={(s) => ({ onDoubleClick: () => setEditing({ kind: 'edit', schedule: s }) })}
        columns={[
          {
            title: t('schedules.cron'),
            key: 'cron',
            width: 260,
            render: (_, s) => (
              <Flex vertical>
                <span>{describeCron(s.cron, s.timeZone, i18n.language) ?? s.cron}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  <Typography.Text code>{s.cron}</Typography.Text>
                  <span title={t('schedules.timeZone')}>{s.timeZone}</span>
                  {s.description ? ` · ${s.description}` : ''}
                </Typography.Text>
              </Flex>
            ),
          },
          { title: t('schedules.parameters'), key: 'parameters', ellipsis: true, render: (_, s) => (Object.keys(s.parameters).length ? <Typography.Text code>{JSON.stringify(s.parameters)}</Typography.Text> : '—') },
          {
            title: t('schedules.enabled'),
            key: 'enabled',
            width: 90,
            render: (_, s) => <Switch size="small" checked={s.enabled} aria-label={t('schedules.enabledLabel')} onChange={(on) => void toggle(s, on)} data-testid={`factory-schedule-enabled-${s.id}`} />,
          },
          {
            title: t('schedules.nextRun'),
            key: 'next',
            width: 160,
            render: (_, s) => (s.nextRunTime ? new Date(s.nextRunTime).toLocaleString() : <Typography.Text type="secondary">{t('schedules.disabled')}</Typography.Text>),
          },
          {
            title: t('schedules.lastRun'),
            key: 'last',
            width: 220,
            render: (_, s) =>
              s.lastRunTime ? (
                <Space size={4}>
                  <span>{new Date(s.lastRunTime).toLocaleString()}</span>
                  {s.lastError ? (
                    <Tooltip title={s.lastError}>
                      <Tag color="error" data-testid={`factory-schedule-failed-${s.id}`}>
                        {t('schedules.failed')}
                      </Tag>
                    </Tooltip>
                  ) : (
                    <Tag color="success">{t('schedules.ok')}</Tag>
                  )}
                </Space>
              ) : (
                <Typography.Text type="secondary">{t('schedules.never')}</Typography.Text>
              ),
          },
          {
            title: t('schedules.actions'),
            key: 'actions',
            width: 150,
            fixed: 'right',
            render: (_, s) => (
              <Space size={0}>
                <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing({ kind: 'edit', schedule: s })} data-testid={`factory-schedule-edit-${s.id}`}>
                  {t('schedules.edit')}
                </Button>
                <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => confirmDelete(s)} data-testid={`factory-schedule-delete-${s.id}`}>
                  {t('schedules.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {editing && <ScheduleDialog procedure={procedure} editing={editing} onClose={() => setEditing(null)} />}
    </Flex>
  );
}

/** Creates or changes a schedule: cron (presets, in words, the next times), time zone, values, on/off. */
function ScheduleDialog({ procedure, editing, onClose }: { procedure: TProcedure; editing: Editing; onClose(): void }) {
  const { t, i18n } = useTranslation('dataFactory');
  const save = useSaveSchedule();
  const existing = editing.kind === 'edit' ? editing.schedule : null;
  const ins = procedure.parameters.filter((p) => p.mode !== 'out');
  const [cron, setCron] = useState(existing?.cron ?? '0 2 * * *');
  const [timeZone, setTimeZone] = useState(existing?.timeZone ?? browserTimeZone());
  const [description, setDescription] = useState(existing?.description ?? '');
  const [enabled, setEnabled] = useState(existing?.enabled ?? true);
  const [texts, setTexts] = useState<Record<string, string>>(() => Object.fromEntries(ins.map((p) => [p.name, textOfValue(existing && Object.hasOwn(existing.parameters, p.name) ? existing.parameters[p.name] : p.defaultValue)])));
  const [tried, setTried] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const zones = useMemo(() => timeZones().map((z) => ({ value: z, label: z })), []);

  const runs = cronRuns(cron, timeZone, 5);
  const words = describeCron(cron, timeZone, i18n.language);
  const parsed = Object.fromEntries(ins.map((p) => [p.name, valueFromText(p.type, texts[p.name] ?? '')]));
  const valuesOk = ins.every((p) => parsed[p.name]!.ok);

  const submit = async () => {
    setTried(true);
    setProblem(null);
    if (!runs || !valuesOk) return;
    const input = { cron: cron.trim(), timeZone, description: description.trim(), enabled, parameters: Object.fromEntries(ins.map((p) => [p.name, parsed[p.name]!.value])) };
    try {
      if (existing) await save.mutateAsync({ procedureId: procedure.id, id: existing.id, input: { ...input, concurrencyStamp: existing.concurrencyStamp } });
      else await save.mutateAsync({ procedureId: procedure.id, id: null, input });
      feedback.message?.success(t('schedules.saved'));
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) return setProblem({ title: t('schedules.conflict'), messages: [] });
      const e = serverError(err);
      setProblem({ title: t('schedules.saveFailed'), messages: [e.message, ...e.details] });
    }
  };

  const cronWrong = tried && !runs;
  return (
    <Modal
      open
      title={existing ? t('schedules.editTitle') : t('schedules.createTitle')}
      okText={t('schedules.save')}
      cancelText={t('schedules.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      width={640}
      okButtonProps={{ 'data-testid': 'factory-schedule-save' } as ButtonProps}
      destroyOnHidden
    >
      <div data-testid="factory-schedule-dialog">
      <ProblemAlert problem={problem} testId="factory-schedule-error" />
      <Form layout="vertical" onFinish={() => void submit()}>
        <Form.Item label={t('schedules.presets')} style={{ marginBottom: 8 }}>
          <Space wrap size={4}>
            {PRESETS.map((p) => (
              <Tag.CheckableTag key={p.key} checked={cron.trim() === p.cron} onChange={() => setCron(p.cron)} data-testid={`factory-schedule-preset-${p.cron.replace(/\W+/g, '_')}`}>
                {t(`schedules.${p.key}`)}
              </Tag.CheckableTag>
            ))}
          </Space>
        </Form.Item>
        <Form.Item
          label={t('schedules.cronLabel')}
          required
          validateStatus={cronWrong || (cron.trim() !== '' && !runs) ? 'error' : undefined}
          help={cron.trim() === '' ? (tried ? t('schedules.cronRequired') : t('schedules.cronHelp')) : runs ? (words ?? t('schedules.cronHelp')) : t('schedules.cronInvalid')}
        >
          <Input value={cron} onChange={(e) => setCron(e.target.value)} maxLength={DATA_FACTORY_LIMITS.cron} style={{ fontFamily: 'monospace' }} aria-label={t('schedules.cronLabel')} data-testid="factory-schedule-cron" />
        </Form.Item>
        <Form.Item label={t('schedules.timeZone')} required>
          <Select showSearch={{ optionFilterProp: 'label' }} value={timeZone} onChange={setTimeZone} options={zones} aria-label={t('schedules.timeZone')} data-testid="factory-schedule-zone" />
        </Form.Item>
        {runs && (
          <Form.Item label={t('schedules.nextRuns', { zone: timeZone })}>
            <Flex wrap gap={4} data-testid="factory-schedule-next-runs">
              {runs.map((r) => (
                <Tag key={r.toISOString()}>{timeIn(r, timeZone)}</Tag>
              ))}
            </Flex>
          </Form.Item>
        )}
        <Form.Item label={t('schedules.values')}>
          {ins.length === 0 ? (
            <Typography.Text type="secondary">{t('schedules.noParameters')}</Typography.Text>
          ) : (
            <ParameterInputs parameters={ins} texts={texts} onChange={setTexts} testIdPrefix="factory-schedule-value" />
          )}
        </Form.Item>
        <Form.Item label={t('schedules.description')}>
          <Input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={DATA_FACTORY_LIMITS.scheduleDescription} placeholder={t('schedules.descriptionPlaceholder')} data-testid="factory-schedule-description" />
        </Form.Item>
        <Form.Item label={t('schedules.enabledLabel')} style={{ marginBottom: 0 }}>
          <Switch checked={enabled} onChange={setEnabled} aria-label={t('schedules.enabledLabel')} data-testid="factory-schedule-enabled" />
        </Form.Item>
      </Form>
      </div>
    </Modal>
  );
}
