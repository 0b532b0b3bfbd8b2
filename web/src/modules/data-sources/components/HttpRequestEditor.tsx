import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Col, Flex, Input, Row, Select, Typography, theme } from 'antd';
import { HTTP_LIMITS, HTTP_METHODS, type THttpRequest } from '@tessera/core/contracts/data-sources';
import { useTranslation } from 'react-i18next';
import '../i18n.ts';

type Pair = { name: string; value: string };

/** Rows of name / value (the query string, the headers), each removable, with an add button. */
function PairList({ rows, onChange, max, kind, nameLabel }: { rows: Pair[]; onChange(rows: Pair[]): void; max: number; kind: 'query' | 'header'; nameLabel: string }) {
  const { t } = useTranslation('dataSources');
  const { token } = theme.useToken();
  const mono = { fontFamily: token.fontFamilyCode };
  const set = (i: number, row: Pair) => onChange(rows.map((r, k) => (k === i ? row : r)));
  return (
    <Flex vertical gap={4}>
      {rows.map((row, i) => (
        <Row key={i} gutter={8} wrap={false}>
          <Col flex="200px">
            <Input size="small" value={row.name} placeholder={nameLabel} style={mono} aria-label={`${nameLabel} ${i + 1}`} data-testid={`http-${kind}-name-${i}`} onChange={(e) => set(i, { ...row, name: e.target.value })} />
          </Col>
          <Col flex="auto">
            <Input size="small" value={row.value} placeholder={t('http.valueTemplate')} maxLength={HTTP_LIMITS.headerValue} style={mono} aria-label={`${t('http.headerValue')} ${i + 1}`} data-testid={`http-${kind}-value-${i}`} onChange={(e) => set(i, { ...row, value: e.target.value })} />
          </Col>
          <Col flex="none">
            <Button size="small" type="text" icon={<DeleteOutlined />} aria-label={t('http.removeRow')} onClick={() => onChange(rows.filter((_, k) => k !== i))} />
          </Col>
        </Row>
      ))}
      {rows.length < max && (
        <div>
          <Button size="small" icon={<PlusOutlined />} onClick={() => onChange([...rows, { name: '', value: '' }])} data-testid={`http-add-${kind}`}>
            {kind === 'query' ? t('http.addQuery') : t('http.addHeader')}
          </Button>
        </div>
      )}
    </Flex>
  );
}

/** An HTTP source's request: method and path, query string, headers, JSON body and the rows path. Parameters: {{name}}, or :name in the path. */
export function HttpRequestEditor({ value, onChange, baseUrl }: { value: THttpRequest; onChange(value: THttpRequest): void; baseUrl: string }) {
  const { t } = useTranslation('dataSources');
  const { token } = theme.useToken();
  const mono = { fontFamily: token.fontFamilyCode };
  const hasBody = value.method !== 'GET' && value.method !== 'HEAD';
  const label = (text: string) => (
    <Typography.Text strong style={{ display: 'block', marginBottom: 4 }}>
      {text}
    </Typography.Text>
  );
  return (
    <Flex vertical gap={10} data-testid="http-request-editor">
      <Flex gap={8} align="center">
        <Select
          value={value.method}
          style={{ width: 110, flex: 'none' }}
          aria-label={t('http.method')}
          data-testid="http-method"
          options={HTTP_METHODS.map((m) => ({ value: m, label: m }))}
          onChange={(method) => onChange({ ...value, method })}
        />
        <Input
          value={value.path}
          addonBefore={<span style={mono}>{baseUrl.replace(/\/+$/, '')}</span>}
          placeholder={t('http.pathPlaceholder')}
          maxLength={HTTP_LIMITS.url}
          spellCheck={false}
          style={mono}
          aria-label={t('http.path')}
          data-testid="http-path"
          onChange={(e) => onChange({ ...value, path: e.target.value })}
        />
      </Flex>
      <Row gutter={16}>
        <Col xs={24} lg={12}>
          {label(t('http.query'))}
          <PairList kind="query" rows={value.query} max={HTTP_LIMITS.query} nameLabel={t('http.queryName')} onChange={(query) => onChange({ ...value, query })} />
        </Col>
        <Col xs={24} lg={12}>
          {label(t('http.requestHeaders'))}
          <PairList kind="header" rows={value.headers} max={HTTP_LIMITS.headers} nameLabel={t('http.headerName')} onChange={(headers) => onChange({ ...value, headers })} />
        </Col>
      </Row>
      {hasBody && (
        <div>
          {label(t('http.body'))}
          <Input.TextArea
            value={value.body}
            autoSize={{ minRows: 3, maxRows: 10 }}
            maxLength={HTTP_LIMITS.body}
            spellCheck={false}
            style={mono}
            placeholder={'{"name": {{name}}, "limit": 20}'}
            aria-label={t('http.body')}
            data-testid="http-body"
            onChange={(e) => onChange({ ...value, body: e.target.value })}
          />
        </div>
      )}
      <div>
        {label(t('http.rowsPath'))}
        <Input
          value={value.rowsPath}
          placeholder="$.data.items"
          maxLength={HTTP_LIMITS.rowsPath}
          spellCheck={false}
          style={{ ...mono, maxWidth: 360 }}
          aria-label={t('http.rowsPath')}
          data-testid="http-rows-path"
          onChange={(e) => onChange({ ...value, rowsPath: e.target.value })}
        />
        <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, marginTop: 2 }}>
          {t('http.rowsPathHelp')}
        </Typography.Text>
      </div>
    </Flex>
  );
}
