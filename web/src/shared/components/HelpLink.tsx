import { QuestionCircleOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Drawer, Empty, Result, Skeleton, Typography } from 'antd';
import type { THelpDocument } from '@tessera/core/contracts/help';
import { P } from '@tessera/core/contracts/permissions';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, ApiError } from '../api/client.ts';
import { registerTexts } from '../i18n/i18n.ts';
import { useAccess } from './Auth.tsx';
import { HelpHtml } from './HelpHtml.tsx';

registerTexts('helpLink', {
  'zh-CN': { help: '帮助', missing: '还没有键为“{{key}}”的帮助文档', create: '去编写', open: '在帮助文档中打开', failed: '帮助文档加载失败', updated: '{{name}} 更新于 {{time}}', updatedAt: '更新于 {{time}}' },
  'en-US': { help: 'Help', missing: 'There is no help document with the key "{{key}}" yet', create: 'Write it', open: 'Open in help documents', failed: 'Could not load the help document', updated: 'Updated by {{name}}, {{time}}', updatedAt: 'Updated {{time}}' },
});

/** A document title that is plain or multilingual, in the current language. */
export function helpTitle(title: string | Record<string, string> | undefined, language: string): string {
  if (!title) return '';
  if (typeof title === 'string') return title;
  return title[language] || (language === 'zh-Hant' ? title['zh-CN'] : '') || title['en-US'] || title['zh-CN'] || Object.values(title).find(Boolean) || '';
}

export const helpDocumentKey = (key: string) => ['help-documents', 'by-key', key] as const;

/**
 * A page's "help" link (`<HelpLink docKey="users" />`): opens the help document with that key in a
 * drawer. A key without a document says so (and offers writers to create it).
 */
export function HelpLink({ docKey, children }: { docKey: string; children?: ReactNode }) {
  const { t, i18n } = useTranslation('helpLink');
  const [open, setOpen] = useState(false);
  const canWrite = useAccess(P.HelpManage);
  const doc = useQuery({
    // The body comes in the interface language: one cache entry per language.
    queryKey: [...helpDocumentKey(docKey), i18n.language],
    queryFn: () => api.get<THelpDocument>(`/app/help-documents/by-key/${encodeURIComponent(docKey)}`, undefined, { silent: true }),
    enabled: open,
    staleTime: 60_000,
  });
  const missing = doc.error instanceof ApiError && doc.error.status === 404;
  return (
    <>
      <Button type="link" size="small" icon={<QuestionCircleOutlined />} onClick={() => setOpen(true)} data-help-key={docKey}>
        {children ?? t('help')}
      </Button>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        size="large"
        title={doc.data ? helpTitle(doc.data.title, i18n.language) : t('help')}
        extra={
          doc.data && (
            <Link to={`/system/documentation?key=${encodeURIComponent(docKey)}`} onClick={() => setOpen(false)}>
              {t('open')}
            </Link>
          )
        }
      >
        {doc.isLoading ? (
          <Skeleton active paragraph={{ rows: 8 }} />
        ) : doc.data ? (
          <>
            <HelpHtml html={doc.data.html} />
            <Typography.Paragraph type="secondary" style={{ marginTop: 24, fontSize: 12 }}>
              {t(doc.data.updatedByName ? 'updated' : 'updatedAt', { name: doc.data.updatedByName, time: new Date(doc.data.updatedAt).toLocaleString(i18n.language) })}
            </Typography.Paragraph>
          </>
        ) : missing ? (
          <Empty description={t('missing', { key: docKey })}>
            {canWrite && (
              <Link to={`/system/documentation?create=${encodeURIComponent(docKey)}`} onClick={() => setOpen(false)}>
                {t('create')}
              </Link>
            )}
          </Empty>
        ) : (
          <Result status="warning" title={t('failed')} subTitle={(doc.error as Error | null)?.message} />
        )}
      </Drawer>
    </>
  );
}
