import { CaretRightOutlined, FileAddOutlined, SaveOutlined } from '@ant-design/icons';
import { Button, Flex, Tag, theme, Tooltip, Typography } from 'antd';
import { DATA_SOURCE_LIMITS, type TDataSource, type TDataSourceMethod, type TDataSourceQueryResult, type THttpRequest } from '@tessera/core/contracts/data-sources';
import { httpParameterNames } from '@tessera/core/helpers/http-request';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { useRunDataSourceMethod, useRunDataSourceQuery } from '../api/data-sources.ts';
import { serverError, type ServerError } from '../api/server-error.ts';
import { emptyHttpRequest, isOpenRequestEdited, sentRequest } from '../components/http-request-form.ts';
import { HttpRequestEditor } from '../components/HttpRequestEditor.tsx';
import { methodFormValues, methodParameterRows, methodRunValues } from '../components/method-input.ts';
import { MethodForm, type MethodFormTarget } from '../components/MethodForm.tsx';
import { ParametersTable } from '../components/ParametersTable.tsx';
import { parameterRows, parameterValues, tooManyParameters, type ParameterRow } from '../components/query-parameters.ts';
import { QueryResult } from '../components/QueryResult.tsx';
import { SavedQueries } from '../components/SavedQueries.tsx';
import '../i18n.ts';

/**
 * The workbench of an HTTP source: its saved queries on the left, a request editor (method, path,
 * query string, headers, JSON body, rows path) with its parameters and the answer's rows on the
 * right. Run sends the request (an opened saved query unchanged: by its id, its cache applies);
 * 保存为查询 saves it with its parameters' types and defaults.
 */
export function HttpWorkbench({ source, phone }: { source: TDataSource; phone: boolean }) {
  const { t } = useTranslation('dataSources');
  const { token } = theme.useToken();
  const [request, setRequest] = useState<THttpRequest>(emptyHttpRequest);
  const [remembered, setRemembered] = useState<Record<string, ParameterRow>>({});
  const [refusedParameters, setRefusedParameters] = useState(false);
  const [result, setResult] = useState<TDataSourceQueryResult | null>(null);
  const [error, setError] = useState<ServerError | null>(null);
  const [openMethod, setOpenMethod] = useState<TDataSourceMethod | null>(null);
  const [methodForm, setMethodForm] = useState<MethodFormTarget | null>(null);
  const run = useRunDataSourceQuery();
  const runMethod = useRunDataSourceMethod();
  const running = run.isPending || runMethod.isPending;

  const sent = useMemo(() => sentRequest(request), [request]);
  const names = useMemo(() => httpParameterNames(sent), [sent]);
  const rows = parameterRows(names, remembered);
  const edited = isOpenRequestEdited(openMethod, request);

  const execute = async () => {
    if (running) return;
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
          : await run.mutateAsync({ id: source.id, input: { sql: '', request: sent, parameters: values } }),
      );
    } catch (err) {
      setResult(null);
      setError(serverError(err));
    }
  };

  const openSaved = (method: TDataSourceMethod) => {
    setRequest(method.request ?? emptyHttpRequest());
    setRemembered((r) => ({ ...r, ...methodParameterRows(method) }));
    setOpenMethod(method);
    setRefusedParameters(false);
    setResult(null);
    setError(null);
  };

  const openMethodForm = (editing: boolean) => {
    if (tooManyParameters(names)) return void feedback.message?.warning(t('workbench.tooManyParameters', { max: DATA_SOURCE_LIMITS.parameters }));
    setMethodForm({ editing: editing ? openMethod : null, values: methodFormValues(rows, openMethod, editing), sql: '', names: [...names], request: sent });
  };

  const left = (
    <div>
      <Typography.Text strong style={{ display: 'block', marginBottom: 4 }} data-testid="data-source-tab-methods">
        {t('methods.tab')}
      </Typography.Text>
      <SavedQueries
        sourceId={source.id}
        openId={openMethod?.id ?? null}
        onOpen={openSaved}
        onDeleted={(m) => setOpenMethod((open) => (open?.id === m.id ? null : open))}
        height={phone ? 180 : 480}
      />
    </div>
  );
  const work = (
    <Flex vertical gap={12} style={{ flex: 1, minWidth: 0 }}>
      <Flex gap={8} align="center" wrap>
        <Button type="primary" icon={<CaretRightOutlined />} loading={running} onClick={() => void execute()} data-testid="data-source-run">
          {t('http.send')}
        </Button>
        {openMethod && (
          <Tooltip title={t('methods.saveHint', { name: openMethod.name })}>
            <Button icon={<SaveOutlined />} onClick={() => openMethodForm(true)} data-testid="data-source-method-save">
              {t('methods.save')}
            </Button>
          </Tooltip>
        )}
        <Button icon={<FileAddOutlined />} onClick={() => openMethodForm(false)} data-testid="data-source-save-method">
          {t('methods.saveAs')}
        </Button>
        {openMethod && (
          <Tooltip title={edited ? t('http.editedHint') : openMethod.description || undefined}>
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
          {source.readOnly ? t('http.readOnlyHint') : t('http.parametersHint')}
        </Typography.Text>
      </Flex>
      <HttpRequestEditor value={request} onChange={setRequest} baseUrl={source.http?.baseUrl ?? ''} />
      <div>
        <Typography.Text strong style={{ display: 'block', marginBottom: 4 }}>
          {t('workbench.parameters')}
        </Typography.Text>
        {names.length === 0 ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="data-source-no-parameters">
            {t('http.noParameters')}
          </Typography.Text>
        ) : (
          <ParametersTable rows={rows} showAllErrors={refusedParameters} onChange={(row) => setRemembered((r) => ({ ...r, [row.name]: row }))} />
        )}
      </div>
      <QueryResult result={result} error={error} height={phone ? 320 : 380} />
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
      <div style={{ width: 280, flex: 'none', borderRight: `1px solid ${token.colorBorderSecondary}`, paddingRight: 12 }}>{left}</div>
      {work}
    </Flex>
  );
}
