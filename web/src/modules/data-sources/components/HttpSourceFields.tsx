import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Checkbox, Col, Divider, Form, Input, Row, Select } from 'antd';
import { HTTP_AUTH_KINDS, HTTP_LIMITS, isHttpBaseUrl } from '@tessera/core/contracts/data-sources';
import { useTranslation } from 'react-i18next';
import type { DataSourceFormValues } from './data-source-form.ts';
import '../i18n.ts';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * An HTTP source's connection: base URL, default headers, authentication (the fields of its kind;
 * the secret written only, like a database password) and the connection test's path.
 */
export function HttpSourceFields({ hasPassword, clearPassword, authKind }: { hasPassword: boolean; clearPassword: boolean; authKind: DataSourceFormValues['authKind'] }) {
  const { t } = useTranslation('dataSources');
  const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' };
  return (
    <>
      <Divider titlePlacement="start" plain style={{ marginTop: 0 }}>
        {t('form.connection')}
      </Divider>
      <Form.Item
        name="baseUrl"
        label={t('http.baseUrl')}
        extra={t('http.baseUrlHelp')}
        rules={[
          { required: true, whitespace: true, message: t('http.baseUrlRequired') },
          { validator: async (_, v: string | undefined) => (!v?.trim() || isHttpBaseUrl(v.trim()) ? undefined : Promise.reject(new Error(t('http.baseUrlInvalid')))) },
        ]}
      >
        <Input maxLength={HTTP_LIMITS.url} autoComplete="off" spellCheck={false} placeholder="https://api.example.com/v1" style={mono} data-testid="data-source-base-url" />
      </Form.Item>
      <Form.Item label={t('http.headers')} extra={t('http.headersHelp')}>
        <Form.List name="headers">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Row key={field.key} gutter={8} wrap={false}>
                  <Col flex="200px">
                    <Form.Item name={[field.name, 'name']} rules={[{ pattern: HEADER_NAME, message: t('http.headerNameInvalid') }]}>
                      <Input placeholder={t('http.headerName')} style={mono} data-testid={`data-source-header-name-${field.name}`} />
                    </Form.Item>
                  </Col>
                  <Col flex="auto">
                    <Form.Item name={[field.name, 'value']}>
                      <Input placeholder={t('http.headerValue')} maxLength={HTTP_LIMITS.headerValue} style={mono} data-testid={`data-source-header-value-${field.name}`} />
                    </Form.Item>
                  </Col>
                  <Col flex="none">
                    <Button type="text" icon={<DeleteOutlined />} aria-label={t('http.removeHeader')} onClick={() => remove(field.name)} />
                  </Col>
                </Row>
              ))}
              {fields.length < HTTP_LIMITS.headers && (
                <Button size="small" icon={<PlusOutlined />} onClick={() => add({ name: '', value: '' })} data-testid="data-source-add-header">
                  {t('http.addHeader')}
                </Button>
              )}
            </>
          )}
        </Form.List>
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item name="authKind" label={t('http.auth')}>
            <Select data-testid="data-source-auth-kind" options={HTTP_AUTH_KINDS.map((k) => ({ value: k, label: t(`http.authKinds.${k}`) }))} />
          </Form.Item>
        </Col>
        {authKind === 'basic' && (
          <Col xs={24} md={16}>
            <Form.Item name="authUsername" label={t('form.user')} rules={[{ required: true, whitespace: true, message: t('form.required.user') }]}>
              <Input autoComplete="off" spellCheck={false} data-testid="data-source-auth-username" />
            </Form.Item>
          </Col>
        )}
        {authKind === 'apiKey' && (
          <>
            <Col xs={24} md={10}>
              <Form.Item name="apiKeyName" label={t('http.apiKeyName')} rules={[{ required: true, whitespace: true, message: t('http.apiKeyNameRequired') }, { pattern: HEADER_NAME, message: t('http.headerNameInvalid') }]}>
                <Input autoComplete="off" spellCheck={false} placeholder="X-Api-Key" style={mono} data-testid="data-source-api-key-name" />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item name="apiKeyIn" label={t('http.apiKeyIn')}>
                <Select data-testid="data-source-api-key-in" options={(['header', 'query'] as const).map((k) => ({ value: k, label: t(`http.apiKeyPlaces.${k}`) }))} />
              </Form.Item>
            </Col>
          </>
        )}
        {authKind !== 'none' && (
          <Col xs={24} md={authKind === 'basic' ? 24 : 24}>
            <Form.Item name="password" label={t(`http.secret.${authKind}`)} style={{ marginBottom: hasPassword ? 4 : undefined }}>
              <Input.Password
                maxLength={HTTP_LIMITS.secret}
                autoComplete="new-password"
                disabled={clearPassword}
                placeholder={hasPassword ? t('http.secretKept') : undefined}
                data-testid="data-source-password"
              />
            </Form.Item>
            {hasPassword && (
              <Form.Item name="clearPassword" valuePropName="checked">
                <Checkbox data-testid="data-source-clear-password">{t('http.clearSecret')}</Checkbox>
              </Form.Item>
            )}
          </Col>
        )}
      </Row>
      <Form.Item name="testPath" label={t('http.testPath')} extra={t('http.testPathHelp')} rules={[{ pattern: /^[^?#]*$/, message: t('http.pathInvalid') }]}>
        <Input maxLength={HTTP_LIMITS.url} autoComplete="off" spellCheck={false} placeholder="/health" style={mono} data-testid="data-source-test-path" />
      </Form.Item>
    </>
  );
}
