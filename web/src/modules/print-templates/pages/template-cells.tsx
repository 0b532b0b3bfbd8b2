import { Space, Tag, Typography } from 'antd';
import type { TPrintTemplateListItem } from '@tessera/core/contracts/print-templates';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { pickText } from '../../../shared/components/LocalizedTextInput.tsx';
import '../i18n.ts';

/** The list's cells, shared by the table (wide screens) and the cards (phones). */
export function useTemplateCells() {
  const { t, i18n } = useTranslation('print');
  return {
    t,
    page: (r: TPrintTemplateListItem) => (
      <span>
        {pickText(r.pageName, i18n.language) || r.pageCode || '—'}
        {r.pageCode && <Typography.Text type="secondary"> ({r.pageCode})</Typography.Text>}
      </span>
    ),
    paper: (r: TPrintTemplateListItem) => `${t(`papers.${r.paper.preset}`)} · ${t(`list.orientation.${r.paper.orientation}`)}`,
    status: (r: TPrintTemplateListItem) => (
      <Space size={4} wrap data-testid={`print-status-${r.id}`}>
        {r.status === 'published' && r.publishedVersion !== null ? (
          <Tag color="green">{t('list.statuses.published', { version: r.publishedVersion })}</Tag>
        ) : (
          <Tag>{t('list.statuses.draft')}</Tag>
        )}
        {r.status === 'published' && r.hasDraftChanges && <Tag color="orange">{t('list.statuses.changed')}</Tag>}
      </Space>
    ),
    modified: (r: TPrintTemplateListItem) => (
      <span>
        {dayjs(r.lastModificationTime ?? r.creationTime).format('YYYY-MM-DD HH:mm')}
        {r.lastModifierName ? <Typography.Text type="secondary"> · {r.lastModifierName}</Typography.Text> : null}
      </span>
    ),
  };
}
