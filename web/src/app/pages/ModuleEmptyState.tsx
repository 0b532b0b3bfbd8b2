import { AppstoreAddOutlined } from '@ant-design/icons';
import { Card, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** A route whose module is not installed yet: says so plainly, names the module, shows no data. */
export function ModuleEmptyState({ title, module }: { title: string; module: string }) {
  const { t } = useTranslation('shell');
  const moduleName = t(`modules.${module}`, { defaultValue: module });
  return (
    <Card variant="borderless" data-testid="module-empty-state" data-module={module}>
      <Empty
        image={<AppstoreAddOutlined style={{ fontSize: 56, opacity: 0.45 }} />}
        styles={{ image: { height: 64 } }}
        description={
          <>
            <Typography.Title level={4} style={{ marginTop: 8 }}>
              {title}
            </Typography.Title>
            <Typography.Paragraph>{t('emptyModule.description', { module: moduleName })}</Typography.Paragraph>
            <Typography.Text type="secondary">{t('emptyModule.hint')}</Typography.Text>
          </>
        }
      />
    </Card>
  );
}
