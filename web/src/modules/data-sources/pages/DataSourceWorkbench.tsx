import { CaretRightOutlined, FileAddOutlined, SaveOutlined } from '@ant-design/icons';
import { Button, Drawer, Flex, Grid, Space, Tag, theme, Tooltip, Typography } from 'antd';
import { DATA_SOURCE_LIMITS, sqlDialectOf, type TDataSource, type TDataSourceMethod, type TDataSourceQueryResult } from '@tessera/core/contracts/data-sources';
import { sqlParameterNames } from '@tessera/core/helpers/sql-parameters';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useRunDataSourceMethod, useRunDataSourceQuery } from '../api/data-sources.ts';
import { serverError, type ServerError } from '../api/server-error.ts';
import { isOpenQueryEdited, methodFormValues, methodParameterRows, methodRunValues } from '../components/method-input.ts';
import { MethodForm, type MethodFormTarget } from '../components/MethodForm.tsx';
import { completionSchema } from '../components/object-tree-data.ts';
import { ObjectTree } from '../components/ObjectTree.tsx';
import { ParametersTable } from '../components/ParametersTable.tsx';
import { parameterRows, parameterValues, tooManyParameters, type ParameterRow } from '../components/query-parameters.ts';
import { QueryResult } from '../components/QueryResult.tsx';
import { SavedQueries } from '../components/SavedQueries.tsx';
import { SqlEditor, type SqlEditorHandle } from '../components/SqlEditor.tsx';
import { useSourceObjects } from '../components/use-source-objects.ts';
import { KIND_COLORS } from './data-source-cells.tsx';
import { HttpWorkbench } from './HttpWorkbench.tsx';
import '../i18n.ts';

/**
 * The query workbench of one source, opened from the list's 查询: its tables and saved queries on
 * the left (above on a phone), the SQL editor with its parameters and the answer on the right.
 * Closes with Escape.
 */
export function DataSourceWorkbench({ source, onClose }: { source: TDataSource | null; onClose(): void }) {
  const { t } = useTranslation('dataSources');
  const phone = Grid.useBreakpoint().lg === false;
  return (
    <Drawer
      open={Boolean(source)}
      onClose={onClose}
      size={phone ? '100%' : '94vw'}
      destroyOnHidden
      data-testid="data-source-workbench"
      styles={{ body: { padding: phone ? 12 : 16 } }}
      title={
        source && (
          <Space size={8} wrap>
            <span>{t('workbench.title', { name: source.name })}</span>
            <Tag color={KIND_COLORS[source.kind]}>{t(`kinds.${source.kind}`)}</Tag>
            <Tag color={source.readOnly ? 'green' : 'volcano'}>{source.readOnly ? t('list.readOnly') : t('list.writable')}</Tag>
          </Space>
        )
      }
    >
      {source && (source.kind === 'http' ? <HttpWorkbench source={source} phone={phone} /> : <Workbench source={source} phone={phone} />)}
    </Drawer>
  );
}

function Workbench({ source, phone }: { source: TDataSource; phone: boolean }) {
  const { t } = useTranslation('dataSources');
  const { token } = theme.useToken();
  const dialect = sqlDialectOf(source.kind)!;
  const editor = useRef<SqlEditorHandle>(null);
  const objects = useSourceObjects(source.id);
  const [sql, setSql] = useState('');
  const generated = useRef('');
  // Every parameter typed this session, by name: a name that leaves the SQL and comes back keeps its value.
  const [remembered, setRemembered] = useState<Record<string, ParameterRow>>({});
  const [refusedParameters, setRefusedParameters] = useState(false);
  const [result, setResult] = useState<TDataSourceQueryResult | null>(null);
  const [error, setError] = useState<ServerError | null>(null);
  const run = useRunDataSourceQuery();
  const runMethod = useRunDataSourceMethod();
  // The saved query opened from the list (or just saved): while the editor holds its SQL, Run runs it by its id (its cache applies).
  const [openMethod, setOpenMethod] = useState<TDataSourceMethod | null>(null);
  const [methodForm, setMethodForm] = useState<MethodFormTarget | null>(null);
  const running = run.isPending || runMethod.isPending;

  const names = useMemo(() => sqlParameterNames(sql, dialect), [sql, dialect]);
  const rows = parameterRows(names, remembered);
  const schema = useMemo(() => completionSchema(objects.objects.data, objects.columns), [objects.objects.data, objects.columns]);
  const edited = isOpenQueryEdited(openMethod, sql);

  const execute = async () => {
    if (!sql.trim() || running) return;
    if (tooManyParameters(names)) return void feedback.message?.warning(t('workbench.tooManyParameters', { max: DATA_SOURCE_LIMITS.parameters }));
    const saved = openMethod && !edited ? openMethod : null;
    const { values, invalid } = saved ? methodRunValues(rows) : parameterValues(rows);
    if (invalid.length) {
      setRefusedParameters(true);
      return void feedback.message?.warning(t('workbench.fixParameters', { names: invalid.map((n) => `:${n}`).join(', ') }));
    }
    setError(null);
    try {
      setResult(
        saved
          ? await runMethod.mutateAsync({ sourceId: source.id, methodId: saved.id, input: { parameters: values } })
          : await run.mutateAsync({ id: source.id, input: { sql, parameters: values } }),
      );
    } catch (err) {
      // The last answer goes: rows shown under a refusal would read as the refused statement's.
      setResult(null);
      setError(serverError(err));
    }
  };

  /** A saved query opened: its SQL in the editor, its defaults as the parameters' values; the last answer was another query's. */
  const openSaved = (method: TDataSourceMethod) => {
    generated.current = '';
    setSql(method.sql);
    setRemembered((r) => ({ ...r, ...methodParameterRows(method) }));
    setOpenMethod(method);
    setRefusedParameters(false);
    setResult(null);
    setError(null);
  };

  const openMethodForm = (editing: boolean) => {
    if (tooManyParameters(names)) return void feedback.message?.warning(t('workbench.tooManyParameters', { max: DATA_SOURCE_LIMITS.parameters }));
    setMethodForm({ editing: editing ? openMethod : null, values: methodFormValues(rows, openMethod, editing), sql, names: [...names] });
  };

  const tree = (
    <ObjectTree
      source={objects}
      dialect={dialect}
      height={phone ? 220 : 320}
      onInsert={(statement, name) => {
        // An empty editor, or one still holding the last clicked table's select, takes this table's
        // select; SQL being written gets the table's name at the cursor (one statement runs at a time).
        if (!sql.trim() || sql.trim() === generated.current) {
          generated.current = statement;
          setSql(statement);
        } else editor.current?.insert(name, true);
      }}
    />
  );
  // The source's tables above its saved queries: both in sight while a query is written.
  const left = (
    <Flex vertical gap={12}>
      {tree}
      <div>
        <Typography.Text strong style={{ display: 'block', marginBottom: 4 }} data-testid="data-source-tab-methods">
          {t('methods.tab')}
        </Typography.Text>
        <SavedQueries
          sourceId={source.id}
          openId={openMethod?.id ?? null}
          onOpen={openSaved}
          onDeleted={(m) => setOpenMethod((open) => (open?.id === m.id ? null : open))}
          height={phone ? 180 : 240}
        />
      </div>
    </Flex>
  );
  const work = (
    <Flex vertical gap={12} style={{ flex: 1, minWidth: 0 }}>
      <Flex gap={8} align="center" wrap>
        <Button type="primary" icon={<CaretRightOutlined />} loading={running} disabled={!sql.trim()} onClick={() => void execute()} data-testid="data-source-run">
          {t('workbench.run')}
        </Button>
        {openMethod && (
          <Tooltip title={t('methods.saveHint', { name: openMethod.name })}>
            <Button icon={<SaveOutlined />} disabled={!sql.trim()} onClick={() => openMethodForm(true)} data-testid="data-source-method-save">
              {t('methods.save')}
            </Button>
          </Tooltip>
        )}
        <Button icon={<FileAddOutlined />} disabled={!sql.trim()} onClick={() => openMethodForm(false)} data-testid="data-source-save-method">
          {t('methods.saveAs')}
        </Button>
        {openMethod && (
          <Tooltip title={edited ? t('methods.editedHint') : openMethod.description || undefined}>
            <Tag
              key={openMethod.id}
              color={edited ? 'orange' : 'blue'}
              closable={{ 'aria-label': t('methods.close') }}
              onClose={(e) => {
                e.preventDefault();
                setOpenMethod(null);
              }}
              data-testid="data-source-method-open"
              data-edited={edited}
              style={{ marginInlineEnd: 0 }}
            >
              {t('methods.open', { name: openMethod.name })}
              {edited && ` · ${t('methods.edited')}`}
            </Tag>
          </Tooltip>
        )}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('workbench.runHint')}
        </Typography.Text>
      </Flex>
      <SqlEditor
        ref={editor}
        value={sql}
        onChange={setSql}
        dialect={dialect}
        onRun={() => void execute()}
        schema={schema}
        defaultSchema={dialect === 'mysql' ? source.database : dialect === 'mssql' ? 'dbo' : 'public'}
        placeholder={t('workbench.editorPlaceholder')}
        height={phone ? 160 : 220}
        aria-label={t('workbench.editor')}
        data-testid="data-source-sql"
      />
      <div>
        <Typography.Text strong style={{ display: 'block', marginBottom: 4 }}>
          {t('workbench.parameters')}
        </Typography.Text>
        <ParametersTable rows={rows} showAllErrors={refusedParameters} onChange={(row) => setRemembered((r) => ({ ...r, [row.name]: row }))} />
      </div>
      <QueryResult result={result} error={error} height={phone ? 320 : 420} />
      <MethodForm
        sourceId={source.id}
        target={methodForm}
        onClose={() => setMethodForm(null)}
        onSaved={(method) => {
          setMethodForm(null);
          setOpenMethod(method);
        }}
      />
    </Flex>
  );

  return phone ? (
    <Flex vertical gap={12}>
      <div style={{ border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius, padding: 8 }}>{left}</div>
      {work}
    </Flex>
  ) : (
    <Flex gap={16} align="flex-start">
      <div style={{ width: 300, flex: 'none', borderRight: `1px solid ${token.colorBorderSecondary}`, paddingRight: 12 }}>{left}</div>
      {work}
    </Flex>
  );
}
