import { PrinterOutlined } from '@ant-design/icons';
import { Button, Result, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePrintTemplates } from '../api/print-templates.ts';
import '../i18n.ts';

/** `/sheet` without an id: choose the template to design. */
export function PickTemplate() {
  const { t } = useTranslation('print');
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const list = usePrintTemplates({ SkipCount: 0, MaxResultCount: 50, Filter: search || undefined, Sorting: 'lastModificationTime desc' });
  return (
    <Result
      icon={<PrinterOutlined />}
      title={t('designer.pickTitle')}
      extra={
        <Space direction="vertical" style={{ width: 'min(420px, 90vw)' }}>
          <Select
            showSearch={{ filterOption: false, onSearch: setSearch }}
            style={{ width: '100%' }}
            aria-label={t('designer.pickTitle')}
            loading={list.isFetching}
            onChange={(v: string) => navigate(`/sheet?id=${encodeURIComponent(v)}`)}
            options={(list.data?.items ?? []).map((d) => ({ value: d.id, label: d.name }))}
          />
          <Button onClick={() => navigate('/design/sheetIndex')}>{t('designer.toList')}</Button>
        </Space>
      }
    />
  );
}

