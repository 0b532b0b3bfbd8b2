import { ReloadOutlined } from '@ant-design/icons';
import { personDisplayName } from '@tessera/core/helpers/person-name';
import { Alert, Button, Modal, Space, Typography } from 'antd';
import { tableFieldTypeOf } from '@tessera/core/controls/registry';
import type { TPageVersionDetail } from '@tessera/core/contracts/pages';
import { flattenViews, type TDataControl, type TPageData, type TView } from '@tessera/core/page-definition';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.ts';
import { useSession } from '../../../shared/auth/session.ts';
import { PageRenderer, type LookupResult, type PageRendererServices } from '../../../shared/components/page-renderer/PageRenderer.tsx';
import { fetchDictionaryOptions } from '../api/designer-lookups.ts';
import { useDesigner } from './designer-store.ts';

// Preview: the page as users will see it, rendered by the runtime's PageRenderer from the design
// on the canvas (saved or not), with defaults and live linkages. The data is sample data held in
// this dialog only; nothing is saved and no document number is taken.

const sourceCache = new Map<string, Promise<TView | null>>();

/** The published view a lookup reads from (`extraProperties.dataSourcePageId` / `dataSourceId`). */
function sourceView(control: TDataControl): Promise<TView | null> {
  const extra = (control.extraProperties ?? {}) as { dataSourcePageId?: string; dataSourceId?: string };
  if (!extra.dataSourcePageId || !extra.dataSourceId) return Promise.resolve(null);
  const key = `${extra.dataSourcePageId}/${extra.dataSourceId}`;
  let found = sourceCache.get(key);
  if (!found) {
    found = api
      .get<{ items: { id: string; publishedVersion: number | null }[] }>('/app/page-definition', { SkipCount: 0, MaxResultCount: 1000 }, { silent: true })
      .then(async (list) => {
        const page = list.items.find((p) => p.id === extra.dataSourcePageId);
        if (!page?.publishedVersion) return null;
        const version = await api.get<TPageVersionDetail>(`/app/page-definition/${page.id}/versions/${page.publishedVersion}`, undefined, { silent: true });
        return flattenViews(version.definition).find((v) => v.view.id === extra.dataSourceId)?.view ?? null;
      })
      .catch(() => null);
    sourceCache.set(key, found);
    setTimeout(() => sourceCache.delete(key), 30_000);
  }
  return found;
}

/** Sample rows shaped like the source view: text, numbers, dates and flags per field type. */
function sampleRows(view: TView | null, control: TDataControl, label: (n: number) => string, filter: string): LookupResult {
  // Text samples read like the field: "供应商名称 1".
  const mapped = (control.extraProperties?.mapFields ?? []).map((m) => m.sourceCode);
  const fields = view ? view.dataControls : [];
  const codes = [...new Set([...fields.map((c) => c.code), ...mapped])];
  const typeOf = (code: string) => {
    const c = fields.find((x) => x.code === code);
    return c ? tableFieldTypeOf(c.controlType) : 1;
  };
  const all = Array.from({ length: 8 }, (_, i) => {
    const n = i + 1;
    const row: Record<string, unknown> = { Id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` };
    for (const code of codes) {
      const type = typeOf(code);
      row[code] = type === 2 ? n * 10 : type === 3 ? Number((n * 12.5).toFixed(2)) : type === 4 ? `2026-0${(n % 9) + 1}-1${n % 10}` : type === 5 ? n % 2 === 0 : `${fields.find((c) => c.code === code)?.title || code} ${n}`;
    }
    if (!codes.length) row.title = label(n);
    return row;
  });
  const needle = filter.toLowerCase();
  const items = needle ? all.filter((r) => Object.values(r).some((v) => String(v).toLowerCase().includes(needle))) : all;
  const columns = view ? codes.map((code) => ({ code, title: fields.find((c) => c.code === code)?.title || code })) : undefined;
  return { items, totalCount: items.length, columns };
}

export function PreviewModal({ onClose }: { onClose(): void }) {
  const { t, i18n } = useTranslation('pageDesigner');
  // The design at the moment the preview opened (the canvas is behind the dialog).
  const definition = useMemo(() => useDesigner.getState().definition, []);
  const user = useSession((s) => s.user);
  const [run, setRun] = useState(0);
  const [data, setData] = useState<TPageData | null>(null);
  const [lastButton, setLastButton] = useState<string | null>(null);

  const services: PageRendererServices = useMemo(() => {
    let numbers = 0;
    return {
      currentUser: user ? { id: user.userId, title: personDisplayName(user, i18n.language), type: 3 } : null,
      currentOrgUnit: user?.organizationUnitId ? { id: user.organizationUnitId, title: user.organizationUnitName ?? '', type: 1 } : null,
      fetchDocumentNumber: async () => t('preview.docNo', { n: String(++numbers).padStart(4, '0') }),
      loadOptions: async (control) => {
        const options = control.options as { dictionaryCode?: string } | null;
        if (!options?.dictionaryCode) return [];
        const r = await fetchDictionaryOptions(options.dictionaryCode);
        return r.items.map((o) => ({ value: o.value, label: o.label }));
      },
      queryLookup: async (q) => sampleRows(await sourceView(q.control), q.control, (n) => t('preview.sample', { n }), q.filter),
    };
  }, [user, t]);

  const rows = data?.viewDataList.reduce((n, v) => n + v.dataList.length, 0) ?? 0;
  return (
    <Modal
      open
      width="min(1200px, 96vw)"
      title={
        <Space>
          {t('preview.title')}
          <Typography.Text type="secondary" style={{ fontWeight: 400, fontSize: 12 }}>
            {t('preview.notSaved')}
          </Typography.Text>
        </Space>
      }
      onCancel={onClose}
      footer={
        <Space>
          <Typography.Text type="secondary" data-testid="preview-rows">
            {t('preview.records', { count: rows })}
          </Typography.Text>
          <Button icon={<ReloadOutlined />} onClick={() => (setRun((r) => r + 1), setData(null), setLastButton(null))}>
            {t('preview.reset')}
          </Button>
          <Button type="primary" onClick={onClose}>
            {t('preview.close')}
          </Button>
        </Space>
      }
      styles={{ body: { maxHeight: '72vh', overflow: 'auto', padding: 12 } }}
      destroyOnHidden
    >
      <div data-testid="page-preview">
        {lastButton && <Alert type="info" showIcon closable style={{ marginBottom: 8 }} message={t('preview.buttonRan', { name: lastButton })} onClose={() => setLastButton(null)} />}
        <PageRenderer
          key={run}
          definition={definition}
          mode="preview"
          services={services}
          onChange={setData}
          onButton={(b) => setLastButton(b.code ?? String(b.buttonType ?? ''))}
        />
      </div>
    </Modal>
  );
}
