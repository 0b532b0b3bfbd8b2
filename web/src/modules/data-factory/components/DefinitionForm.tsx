import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Col, Flex, Form, Input, InputNumber, Radio, Row, Select, Table, Typography } from 'antd';
import { SQL_SOURCE_KIND_NAMES } from '@tessera/core/contracts/data-sources';
import { DATA_FACTORY_LIMITS, FACTORY_TYPES, type TFactoryType, type TSourceRoutine } from '@tessera/core/contracts/data-factory';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/api/client.ts';
import { SqlEditor } from '../../data-sources/components/SqlEditor.tsx';
import { useFactorySources, useSourceRoutines } from '../api/data-factory.ts';
import { rowKey, withRoutine, type ProcedureDraft } from './procedure-draft.ts';
import '../i18n.ts';

const ALL_TYPE_OPTIONS = (Object.keys(FACTORY_TYPES) as TFactoryType[]).map((t) => ({ value: t, label: FACTORY_TYPES[t] }));
/** refcursor belongs to routines of PostgreSQL sources; the factory's own functions return tables. */
const TYPE_OPTIONS = ALL_TYPE_OPTIONS.filter((o) => o.value !== 'refcursor');
/** The picker's value for the product's own database (a Select option needs a value). */
const FACTORY = '';
const routineKey = (r: { schema: string; name: string; kind: string }) => `${r.kind}\u0000${r.schema}\u0000${r.name}`;

interface DefinitionFormProps {
  draft: ProcedureDraft;
  onChange(draft: ProcedureDraft): void;
  /** Fields marked wrong (draftProblems), shown once a save was tried. */
  wrong: Set<string>;
  /** The code of a saved procedure can change (the function is renamed). */
  onSave(): void;
  /** A saved procedure keeps where it runs. */
  saved: boolean;
}

/**
 * Where it runs (the product's database, or a database source), then: code, name, limits,
 * parameters (name, type, IN/OUT/INOUT, default); for the product's database what it returns and
 * the PL/pgSQL body, for a source the routine it calls.
 */
export function DefinitionForm({ draft, onChange, wrong, onSave, saved }: DefinitionFormProps) {
  const { t } = useTranslation('dataFactory');
  const sources = useFactorySources(true);
  const routines = useSourceRoutines(draft.sourceId);
  const external = draft.sourceId !== null;
  const routineLabel = (r: { schema: string; name: string; kind: string; returnsTable?: boolean }) => `${r.schema}.${r.name}（${t(r.kind === 'procedure' ? 'editor.procedureKind' : r.returnsTable ? 'editor.tableFunctionKind' : 'editor.functionKind')}）`;
  // The saved routine shows by name while the source's list loads (or when the source no longer has it).
  const listed = routines.data?.items ?? [];
  const routineOptions = [...(draft.routine && !listed.some((r) => routineKey(r) === routineKey(draft.routine!)) ? [draft.routine] : []), ...listed].map((r) => ({ value: routineKey(r), label: routineLabel(r) }));
  const set = (changes: Partial<ProcedureDraft>) => onChange({ ...draft, ...changes });
  const setParam = (key: number, changes: Partial<ProcedureDraft['parameters'][number]>) => set({ parameters: draft.parameters.map((p) => (p.key === key ? { ...p, ...changes } : p)) });
  const setColumn = (key: number, changes: Partial<ProcedureDraft['columns'][number]>) => set({ columns: draft.columns.map((c) => (c.key === key ? { ...c, ...changes } : c)) });
  const status = (field: string) => (wrong.has(field) ? ('error' as const) : undefined);

  return (
    <Form layout="vertical" size="small" component="div">
      <Row gutter={12}>
        <Col xs={24} md={8}>
          <Form.Item label={t('editor.runsOn')} extra={saved ? t('editor.runsOnFixed') : undefined}>
            <Select
              value={draft.sourceId ?? FACTORY}
              disabled={saved}
              loading={sources.isLoading}
              onChange={(v: string) => set({ sourceId: v === FACTORY ? null : v, routine: null, parameters: v === FACTORY ? draft.parameters.filter((p) => p.mode !== 'inout') : [] })}
              options={[{ value: FACTORY, label: t('editor.runsOnFactory') }, ...(sources.data?.items ?? []).map((s) => ({ value: s.id, label: `${s.name}（${SQL_SOURCE_KIND_NAMES[s.kind]}）` }))]}
              aria-label={t('editor.runsOn')}
              data-testid="factory-source"
            />
          </Form.Item>
        </Col>
        {external && (
          <Col xs={24} md={16}>
            <Form.Item
              label={t('editor.routine')}
              required
              validateStatus={routines.isError || wrong.has('routine') ? 'error' : undefined}
              help={routines.isError ? t('editor.routinesFailed', { message: errorText(routines.error) }) : wrong.has('routine') ? t('editor.routineRequired') : t('editor.routineHint')}
            >
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                value={draft.routine ? routineKey(draft.routine) : undefined}
                placeholder={t('editor.routinePlaceholder')}
                loading={routines.isFetching}
                notFoundContent={routines.isFetching ? undefined : t('editor.noRoutines')}
                onChange={(key: string) => {
                  const picked = routines.data?.items.find((r: TSourceRoutine) => routineKey(r) === key);
                  if (picked) onChange(withRoutine(draft, picked));
                }}
                options={routineOptions}
                aria-label={t('editor.routine')}
                data-testid="factory-routine"
              />
            </Form.Item>
          </Col>
        )}
      </Row>
      <Row gutter={12}>
        <Col xs={24} md={8}>
          <Form.Item label={t('editor.code')} required validateStatus={status('code')} help={wrong.has('code') ? t('editor.codeInvalid') : t('editor.codeHint')}>
            <Input value={draft.code} maxLength={DATA_FACTORY_LIMITS.code} onChange={(e) => set({ code: e.target.value })} data-testid="factory-code" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item label={t('editor.name')} required validateStatus={status('name')} help={wrong.has('name') ? t('editor.nameRequired') : undefined}>
            <Input value={draft.name} maxLength={DATA_FACTORY_LIMITS.name} onChange={(e) => set({ name: e.target.value })} data-testid="factory-name" />
          </Form.Item>
        </Col>
        <Col xs={12} md={4}>
          <Form.Item label={t('editor.timeout')}>
            <InputNumber
              style={{ width: '100%' }}
              min={DATA_FACTORY_LIMITS.timeoutSeconds.min}
              max={DATA_FACTORY_LIMITS.timeoutSeconds.max}
              value={draft.timeoutSeconds}
              onChange={(v) => set({ timeoutSeconds: v ?? DATA_FACTORY_LIMITS.timeoutSeconds.default })}
              data-testid="factory-timeout"
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={4}>
          <Form.Item label={t('editor.rowCap')}>
            <InputNumber style={{ width: '100%' }} min={1} max={DATA_FACTORY_LIMITS.rowCap.max} value={draft.rowCap} onChange={(v) => set({ rowCap: v ?? DATA_FACTORY_LIMITS.rowCap.default })} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item label={t('editor.description')}>
        <Input value={draft.description} maxLength={DATA_FACTORY_LIMITS.description} onChange={(e) => set({ description: e.target.value })} />
      </Form.Item>

      <Flex justify="space-between" align="center" style={{ marginBottom: 6 }}>
        <Typography.Text strong>{t('editor.parameters')}</Typography.Text>
        <Button size="small" icon={<PlusOutlined />} onClick={() => set({ parameters: [...draft.parameters, { key: rowKey(), name: `p_${draft.parameters.length + 1}`, type: 'text', mode: 'in', defaultText: '' }] })} data-testid="factory-add-parameter">
          {t('editor.addParameter')}
        </Button>
      </Flex>
      <Table
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={draft.parameters}
        style={{ marginBottom: 12 }}
        data-testid="factory-parameters"
        columns={[
          {
            title: t('editor.paramName'),
            key: 'name',
            render: (_, p, i) => <Input size="small" value={p.name} status={status(`param-name-${p.key}`)} aria-label={`${t('editor.paramName')} ${i + 1}`} onChange={(e) => setParam(p.key, { name: e.target.value })} data-testid={`factory-param-name-${i}`} />,
          },
          {
            title: t('editor.paramType'),
            key: 'type',
            width: 170,
            render: (_, p, i) => <Select size="small" style={{ width: '100%' }} value={p.type} options={external ? ALL_TYPE_OPTIONS : TYPE_OPTIONS} aria-label={`${t('editor.paramType')} ${i + 1}`} onChange={(type) => setParam(p.key, { type })} data-testid={`factory-param-type-${i}`} />,
          },
          {
            title: t('editor.paramMode'),
            key: 'mode',
            width: 90,
            render: (_, p, i) => (
              <Select size="small" style={{ width: '100%' }} value={p.mode} options={[{ value: 'in', label: 'IN' }, { value: 'out', label: 'OUT' }, ...(external ? [{ value: 'inout', label: 'INOUT' }] : [])]} aria-label={`${t('editor.paramMode')} ${i + 1}`} onChange={(mode) => setParam(p.key, { mode })} data-testid={`factory-param-mode-${i}`} />
            ),
          },
          {
            title: t('editor.paramDefault'),
            key: 'default',
            render: (_, p, i) => (
              <Input
                size="small"
                disabled={p.mode === 'out'}
                value={p.mode === 'out' ? '' : p.defaultText}
                placeholder={t('editor.paramDefaultPlaceholder')}
                status={status(`param-default-${p.key}`)}
                aria-label={`${t('editor.paramDefault')} ${i + 1}`}
                onChange={(e) => setParam(p.key, { defaultText: e.target.value })}
                data-testid={`factory-param-default-${i}`}
              />
            ),
          },
          {
            key: 'remove',
            width: 40,
            render: (_, p) => <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('editor.remove')} onClick={() => set({ parameters: draft.parameters.filter((x) => x.key !== p.key) })} />,
          },
        ]}
      />

      {!external && (
        <>
      <Form.Item label={t('editor.returns')} style={{ marginBottom: 6 }}>
        <Radio.Group
          value={draft.returnsKind}
          onChange={(e) => set({ returnsKind: e.target.value, columns: e.target.value === 'table' && draft.columns.length === 0 ? [{ key: rowKey(), name: 'value', type: 'text' }] : draft.columns })}
          options={[
            { value: 'table', label: t('editor.returnsTable') },
            { value: 'void', label: t('editor.returnsVoid') },
          ]}
          data-testid="factory-returns"
        />
      </Form.Item>
      {draft.returnsKind === 'table' && (
        <>
          <Flex justify="space-between" align="center" style={{ marginBottom: 6 }}>
            <Typography.Text type="secondary">{t('editor.columns')}</Typography.Text>
            <Button size="small" icon={<PlusOutlined />} onClick={() => set({ columns: [...draft.columns, { key: rowKey(), name: `col_${draft.columns.length + 1}`, type: 'text' }] })} data-testid="factory-add-column">
              {t('editor.addColumn')}
            </Button>
          </Flex>
          <Table
            size="small"
            rowKey="key"
            pagination={false}
            dataSource={draft.columns}
            style={{ marginBottom: 12 }}
            data-testid="factory-columns"
            columns={[
              {
                title: t('editor.paramName'),
                key: 'name',
                render: (_, c, i) => <Input size="small" value={c.name} status={status(`column-name-${c.key}`)} aria-label={`${t('editor.columns')} ${i + 1}`} onChange={(e) => setColumn(c.key, { name: e.target.value })} data-testid={`factory-column-name-${i}`} />,
              },
              {
                title: t('editor.paramType'),
                key: 'type',
                width: 170,
                render: (_, c, i) => <Select size="small" style={{ width: '100%' }} value={c.type} options={TYPE_OPTIONS} onChange={(type) => setColumn(c.key, { type })} data-testid={`factory-column-type-${i}`} />,
              },
              {
                key: 'remove',
                width: 40,
                render: (_, c) => <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('editor.remove')} disabled={draft.columns.length === 1} onClick={() => set({ columns: draft.columns.filter((x) => x.key !== c.key) })} />,
              },
            ]}
          />
        </>
      )}
      <Form.Item label={t('editor.body')} extra={wrong.has('body') ? t('editor.bodyRequired') : t('editor.bodyHint')} validateStatus={status('body')}>
        <SqlEditor value={draft.body} onChange={(body) => set({ body })} dialect="postgres" onRun={onSave} height={260} aria-label={t('editor.body')} data-testid="factory-body" />
      </Form.Item>
        </>
      )}
      {wrong.size > 0 && <Alert type="error" showIcon title={t('editor.saveFailed')} />}
    </Form>
  );
}
