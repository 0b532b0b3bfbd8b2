import { Alert, Checkbox, Col, Divider, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import { DATA_SOURCE_KINDS, DATA_SOURCE_LIMITS, HTTP_LIMITS, type TDataSourceKind } from '@tessera/core/contracts/data-sources';
import { useTranslation } from 'react-i18next';
import { HOST_PATTERN, type DataSourceFormValues } from './data-source-form.ts';
import { HttpSourceFields } from './HttpSourceFields.tsx';
import '../i18n.ts';

type Limit = { min: number; max: number };

/** The settings of a data source, as form items of the create/edit form (values: DataSourceFormValues). */
export function DataSourceFields({ hasPassword, clearPassword, kind, authKind }: { hasPassword: boolean; clearPassword: boolean; kind: TDataSourceKind; authKind: DataSourceFormValues['authKind'] }) {
  const { t } = useTranslation('dataSources');
  const required = (field: string) => ({ required: true, whitespace: true, message: t(`form.required.${field}`) });
  const number = (name: string, label: string, help: string, limit: Limit, testId: string) => (
    <Form.Item name={name} label={label} extra={t(help, limit)} rules={[{ required: true, message: t('form.required.number') }]}>
      <InputNumber min={limit.min} max={limit.max} precision={0} style={{ width: '100%' }} data-testid={testId} />
    </Form.Item>
  );

  return (
    <>
      <Row gutter={16}>
        <Col xs={24} md={14}>
          <Form.Item name="name" label={t('form.name')} rules={[required('name')]}>
            <Input maxLength={DATA_SOURCE_LIMITS.name} autoComplete="off" data-testid="data-source-name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={10}>
          <Form.Item name="kind" label={t('form.kind')} rules={[{ required: true }]}>
            <Select data-testid="data-source-kind" options={DATA_SOURCE_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="description" label={t('form.description')}>
        <Input.TextArea rows={2} maxLength={DATA_SOURCE_LIMITS.description} data-testid="data-source-description" />
      </Form.Item>

      {kind === 'http' ? (
        <HttpSourceFields hasPassword={hasPassword} clearPassword={clearPassword} authKind={authKind} />
      ) : kind === 'own' ? (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('form.ownTitle')} description={t('form.ownHelp')} data-testid="data-source-own-help" />
      ) : (
        <SqlConnectionFields hasPassword={hasPassword} clearPassword={clearPassword} />
      )}

      <Divider titlePlacement="start" plain style={{ marginTop: 0 }}>
        {t('form.limits')}
      </Divider>
      <Form.Item name="readOnly" label={t('form.readOnly')} valuePropName="checked" extra={t(kind === 'http' ? 'form.readOnlyHttpHelp' : kind === 'own' ? 'form.readOnlyOwnHelp' : 'form.readOnlyHelp')}>
        <Switch disabled={kind === 'own'} data-testid="data-source-read-only" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={8}>
          {/* A database's connections, an API's requests at once. */}
          {number('poolSize', t(kind === 'http' ? 'form.httpPoolSize' : 'form.poolSize'), kind === 'http' ? 'form.httpPoolSizeHelp' : 'form.poolSizeHelp', DATA_SOURCE_LIMITS.poolSize, 'data-source-pool-size')}
        </Col>
        <Col xs={24} md={8}>
          {kind === 'http'
            ? number('timeoutMs', t('form.timeoutMs'), 'form.timeoutMsHelp', HTTP_LIMITS.timeoutMs, 'data-source-timeout-ms')
            : number('statementTimeoutSeconds', t('form.statementTimeout'), 'form.statementTimeoutHelp', DATA_SOURCE_LIMITS.statementTimeoutSeconds, 'data-source-timeout')}
        </Col>
        <Col xs={24} md={8}>
          {number('rowCap', t('form.rowCap'), 'form.rowCapHelp', DATA_SOURCE_LIMITS.rowCap, 'data-source-row-cap')}
        </Col>
      </Row>
    </>
  );
}

/** A database's host, port, database, user, password and SSL. */
function SqlConnectionFields({ hasPassword, clearPassword }: { hasPassword: boolean; clearPassword: boolean }) {
  const { t } = useTranslation('dataSources');
  const required = (field: string) => ({ required: true, whitespace: true, message: t(`form.required.${field}`) });
  return (
    <>
      <Divider titlePlacement="start" plain style={{ marginTop: 0 }}>
        {t('form.connection')}
      </Divider>
      <Row gutter={16}>
        <Col xs={24} md={16}>
          <Form.Item name="host" label={t('form.host')} rules={[required('host'), { pattern: HOST_PATTERN, message: t('form.hostInvalid') }]}>
            <Input maxLength={DATA_SOURCE_LIMITS.host} autoComplete="off" spellCheck={false} data-testid="data-source-host" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="port" label={t('form.port')} rules={[{ required: true, message: t('form.required.port') }]}>
            <InputNumber min={1} max={65_535} precision={0} style={{ width: '100%' }} data-testid="data-source-port" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="database" label={t('form.database')} rules={[required('database')]}>
            <Input maxLength={DATA_SOURCE_LIMITS.database} autoComplete="off" spellCheck={false} data-testid="data-source-database" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="user" label={t('form.user')} rules={[required('user')]}>
            {/* Not the browser's saved sign-in: these are another system's credentials. */}
            <Input maxLength={DATA_SOURCE_LIMITS.user} autoComplete="off" spellCheck={false} data-testid="data-source-user" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="password" label={t('form.password')} style={{ marginBottom: hasPassword ? 4 : undefined }}>
            <Input.Password
              maxLength={DATA_SOURCE_LIMITS.password}
              autoComplete="new-password"
              disabled={clearPassword}
              placeholder={hasPassword ? t('form.passwordKept') : t('form.passwordPlaceholder')}
              data-testid="data-source-password"
            />
          </Form.Item>
          {hasPassword && (
            <Form.Item name="clearPassword" valuePropName="checked">
              <Checkbox data-testid="data-source-clear-password">{t('form.clearPassword')}</Checkbox>
            </Form.Item>
          )}
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="ssl" label={t('form.ssl')} valuePropName="checked">
            <Switch data-testid="data-source-ssl" />
          </Form.Item>
        </Col>
      </Row>
    </>
  );
}
