import { Card, Col, Empty, Row, Tabs, Tag, Typography } from 'antd';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../shared/ui/feedback.tsx';
import { DataScopeEditor } from '../components/DataScopeEditor.tsx';
import { PermissionPanel } from '../components/PermissionPanel.tsx';
import { ProviderPicker, type ProviderSelection } from '../components/ProviderPicker.tsx';
import '../i18n.ts';

/** /builtIn/authorization: grant permissions and menus to a role, a user or an organisation unit. */
export default function AuthorizationPage() {
  const { t } = useTranslation('authorization');
  const [selection, setSelection] = useState<ProviderSelection | null>(null);
  const dirty = useRef(false);
  const onDirtyChange = useCallback((d: boolean) => {
    dirty.current = d;
  }, []);

  const select = (next: ProviderSelection) => {
    if (next.providerKey === selection?.providerKey) return;
    if (!dirty.current) return setSelection(next);
    feedback.modal?.confirm({
      title: t('discardTitle'),
      content: t('discardText'),
      onOk: () => {
        dirty.current = false;
        setSelection(next);
      },
    });
  };

  return (
    <Row gutter={[16, 16]} wrap={false} className="master-detail" style={{ alignItems: 'flex-start' }}>
      <Col flex="320px">
        <Card title={t('picker.title')} size="small">
          <ProviderPicker value={selection} onSelect={select} />
        </Card>
      </Col>
      <Col flex="auto" style={{ minWidth: 0 }}>
        <Card
          size="small"
          title={
            selection ? (
              <span>
                <Tag color={selection.providerName === 'R' ? 'blue' : selection.providerName === 'U' ? 'green' : 'purple'}>
                  {t(`providers.${selection.providerName}`)}
                </Tag>
                <Typography.Text strong data-testid="authorization-target">
                  {selection.title}
                </Typography.Text>
              </span>
            ) : (
              t('title')
            )
          }
        >
          {selection ? (
            <Tabs
              key={selection.providerKey}
              items={[
                {
                  key: 'permissions',
                  label: t('tabs.permissions'),
                  children: <PermissionPanel providerName={selection.providerName} providerKey={selection.providerKey} onDirtyChange={onDirtyChange} />,
                },
                ...(selection.providerName === 'R'
                  ? [{ key: 'scopes', label: t('tabs.dataScopes'), children: <DataScopeEditor roleId={selection.providerKey} readOnly={selection.title.toLowerCase() === 'admin'} /> }]
                  : []),
              ]}
            />
          ) : (
            <Empty description={t('pickFirst')} style={{ margin: 48 }} />
          )}
        </Card>
      </Col>
    </Row>
  );
}
