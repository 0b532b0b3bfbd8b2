import { PlusOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Empty, Input, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { P } from '@tessera/core/contracts/permissions';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/client.ts';
import { useAccess } from '../../../shared/components/Auth.tsx';
import { createText, deleteText, localizationKeys, updateText, useAllTexts, useDictionary, useLanguagePacks } from '../api/localization.ts';
import { checkForTextChanges } from '../sync.ts';
import { AddTextModal } from './AddTextModal.tsx';
import { BUNDLED_CULTURES, bundlesOf, loadAllTexts } from './reference-texts.ts';
import { buildTranslationRows, type TranslationRow } from './translation-rows.ts';

interface Props {
  target: string;
  onTargetChange(culture: string): void;
}

/** Keys side by side: the reference language, the target language, what is missing; edit and save in place. */
export function TranslationGrid({ target, onTargetChange }: Props) {
  const { t } = useTranslation('localization');
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const canEdit = useAccess(P.LocalizationManage);
  const packs = useLanguagePacks();
  const [reference, setReference] = useState<string>(target === 'zh-CN' ? 'en-US' : 'zh-CN');
  const [textsReady, setTextsReady] = useState(false);
  const [ns, setNs] = useState<string | undefined>();
  const [search, setSearch] = useState('');
  const [onlyMissing, setOnlyMissing] = useState(false);
  const [edits, setEdits] = useState<Map<string, string>>(new Map());
  const [saving, setSaving] = useState(false);
  const [adding, setAdding] = useState(false);
  const referenceAdmin = useAllTexts(reference);
  const targetAdmin = useAllTexts(target);
  const targetDictionary = useDictionary(target);

  useEffect(() => {
    void loadAllTexts().then(() => setTextsReady(true));
  }, []);
  useEffect(() => setEdits(new Map()), [target, reference]);

  const rows = useMemo(() => {
    if (!textsReady || !referenceAdmin.data || !targetAdmin.data || !targetDictionary.data) return [];
    return buildTranslationRows({
      referenceBundles: bundlesOf(reference),
      referenceAdmin: referenceAdmin.data,
      targetBundles: (BUNDLED_CULTURES as readonly string[]).includes(target) ? bundlesOf(target) : {},
      targetDictionary: targetDictionary.data,
      targetAdmin: targetAdmin.data,
    });
  }, [textsReady, reference, target, referenceAdmin.data, targetAdmin.data, targetDictionary.data]);

  const namespaces = useMemo(() => [...new Set(rows.map((r) => r.ns))], [rows]);
  const needle = search.trim().toLowerCase();
  const shown = rows.filter(
    (r) =>
      (!ns || r.ns === ns) &&
      (!onlyMissing || r.source === 'missing') &&
      (!needle || [r.key, r.reference ?? '', r.target ?? '', edits.get(r.id) ?? ''].some((v) => v.toLowerCase().includes(needle))),
  );
  const missing = rows.filter((r) => r.source === 'missing').length;

  const guard = (go: () => void) => () =>
    edits.size ? modal.confirm({ title: t('grid.unsavedLeave'), onOk: go }) : go();
  const setEdit = (row: TranslationRow, value: string) =>
    setEdits((prev) => {
      const next = new Map(prev);
      if (value === (row.target ?? '')) next.delete(row.id);
      else next.set(row.id, value);
      return next;
    });

  const refresh = async () => {
    await client.invalidateQueries({ queryKey: localizationKeys.all });
    void checkForTextChanges();
  };

  const save = async () => {
    const byId = new Map(rows.map((r) => [r.id, r]));
    let count = 0;
    setSaving(true);
    try {
      for (const [id, value] of edits) {
        const row = byId.get(id);
        if (!row) continue;
        const input = { culture: target, resourceName: row.ns, key: row.key, value };
        if (!value.trim()) {
          if (row.adminId) await deleteText(row.adminId);
          else continue;
        } else if (row.adminId) await updateText(row.adminId, input);
        else if (value !== row.builtIn) await createText(input);
        else continue;
        count++;
      }
      setEdits(new Map());
      message.success(count ? t('grid.saved', { count }) : t('grid.nothing'));
    } catch (err) {
      message.error(err instanceof ApiError ? err.message : String(err));
    } finally {
      setSaving(false);
      await refresh();
    }
  };

  const reset = async (row: TranslationRow) => {
    if (!row.adminId) return;
    await deleteText(row.adminId);
    setEdits((prev) => {
      const next = new Map(prev);
      next.delete(row.id);
      return next;
    });
    await refresh();
  };

  const sourceTag = (row: TranslationRow) =>
    row.source === 'admin' ? <Tag color="green">{t('grid.sourceAdmin')}</Tag> : row.source === 'builtIn' ? <Tag>{t('grid.sourceBuiltIn')}</Tag> : <Tag color="orange">{t('grid.sourceMissing')}</Tag>;

  const columns: ColumnsType<TranslationRow> = [
    {
      title: t('grid.key'),
      key: 'key',
      width: 260,
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>{r.ns}</Typography.Text>
          <Typography.Text code copyable={{ text: r.key }} style={{ wordBreak: 'break-all' }}>{r.key}</Typography.Text>
        </Space>
      ),
    },
    { title: `${t('grid.referenceText')} (${reference})`, key: 'reference', render: (_, r) => <span lang={reference}>{r.reference ?? '—'}</span> },
    {
      title: `${t('grid.targetText')} (${target})`,
      key: 'target',
      width: '38%',
      render: (_, r) => (
        <Input.TextArea
          lang={target}
          autoSize={{ minRows: 1, maxRows: 6 }}
          value={edits.get(r.id) ?? r.target ?? ''}
          placeholder={r.reference ?? t('grid.placeholder')}
          disabled={!canEdit}
          status={edits.has(r.id) ? 'warning' : undefined}
          aria-label={`${r.ns}:${r.key}`}
          data-testid={`translation-${r.ns}:${r.key}`}
          onChange={(e) => setEdit(r, e.target.value)}
        />
      ),
    },
    { title: t('grid.source'), key: 'source', width: 90, render: (_, r) => sourceTag(r) },
    {
      title: '',
      key: 'actions',
      width: 56,
      render: (_, r) =>
        canEdit && r.adminId ? (
          <Tooltip title={t('grid.resetHint')}>
            <Button size="small" type="text" icon={<UndoOutlined />} aria-label={t('grid.reset')} onClick={() => void reset(r)} />
          </Tooltip>
        ) : null,
    },
  ];

  const loading = !textsReady || referenceAdmin.isFetching || targetAdmin.isFetching || targetDictionary.isFetching;
  const packOptions = (packs.data?.items ?? []).map((p) => ({ value: p.culture, label: `${p.title} (${p.culture})` }));

  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12}>
      <Space wrap>
        <span>{t('grid.reference')}</span>
        <Select
          style={{ width: 170 }}
          value={reference}
          aria-label={t('grid.reference')}
          options={BUNDLED_CULTURES.filter((c) => c !== target).map((c) => ({ value: c, label: packOptions.find((o) => o.value === c)?.label ?? c }))}
          onChange={(v) => guard(() => setReference(v))()}
        />
        <span>{t('grid.target')}</span>
        <Select
          style={{ width: 220 }}
          value={target}
          aria-label={t('grid.target')}
          options={packOptions}
          loading={packs.isLoading}
          onChange={(v) =>
            guard(() => {
              if (v === reference) setReference(BUNDLED_CULTURES.find((c) => c !== v)!);
              onTargetChange(v);
            })()
          }
        />
        <Select allowClear style={{ width: 180 }} placeholder={t('grid.allNamespaces')} value={ns} onChange={setNs} options={namespaces.map((n) => ({ value: n, label: n }))} aria-label={t('grid.namespace')} />
        <Input.Search allowClear style={{ width: 240 }} placeholder={t('grid.search')} value={search} onChange={(e) => setSearch(e.target.value)} />
        <Checkbox checked={onlyMissing} onChange={(e) => setOnlyMissing(e.target.checked)}>
          {t('grid.onlyMissing')}
        </Checkbox>
      </Space>
      <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Text type="secondary">{textsReady ? t('grid.stats', { total: rows.length, missing }) : t('grid.loadingTexts')}</Typography.Text>
        {canEdit && (
          <Space>
            <Button icon={<PlusOutlined />} onClick={() => setAdding(true)}>
              {t('grid.addKey')}
            </Button>
            <Button disabled={!edits.size} onClick={() => setEdits(new Map())}>
              {t('grid.discard')}
            </Button>
            <Button type="primary" icon={<SaveOutlined />} loading={saving} disabled={!edits.size} onClick={() => void save()}>
              {edits.size ? t('grid.saveCount', { count: edits.size }) : t('grid.save')}
            </Button>
          </Space>
        )}
      </Space>
      <Table<TranslationRow>
        size="small"
        scroll={{ x: 860 }}
        rowKey="id"
        loading={loading}
        columns={columns}
        dataSource={shown}
        pagination={{ defaultPageSize: 50, showSizeChanger: true, pageSizeOptions: [20, 50, 100, 200], showTotal: (total) => t('grid.total', { count: total }) }}
        locale={{ emptyText: <Empty description={onlyMissing ? t('grid.emptyNoMissing') : t('grid.empty')} /> }}
        rowClassName={(r) => (r.source === 'missing' ? 'translation-missing' : '')}
      />
      <AddTextModal
        open={adding}
        culture={target}
        namespaces={namespaces}
        onClose={() => setAdding(false)}
        onSaved={async () => {
          setAdding(false);
          await refresh();
        }}
      />
    </Space>
  );
}
