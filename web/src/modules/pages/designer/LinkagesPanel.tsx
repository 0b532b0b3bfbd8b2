import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Checkbox, Dropdown, List, Segmented, Select, Space, Tag, Typography } from 'antd';
import type { TDataLinkage, TPageDefinition, TPageEvent, TPageStateControl, TTriggerCondition } from '@tessera/core/page-definition';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

type TFn = (k: string, o?: Record<string, unknown>) => string;
import { FormulaEditor } from '../../../shared/components/formula-editor/FormulaEditor.tsx';
import { localizedTitle, viewTitle } from '../../../shared/components/page-renderer/control-rules.ts';
import { useDesigner } from './designer-store.ts';
import { formulaReferencesFor, formulaSchemaFor } from './formula-schema.ts';
import { allControls, allViews, newId } from './tree-ops.ts';
import { AssignmentsEditor } from './widgets/AssignmentsEditor.tsx';

// The data linkages editor (spec §3 data linkage, §4): type 1 assignments and type 2 page state,
// each with trigger conditions (control + trigger formula; every trigger must be true), assignments
// (control + assignment formula), page events and page-state controls (hide / read-only per
// control, view or button).

/** Page event kinds stored in `pageEvents` (the runtime receives them as effects). */
const TRIGGER_OPERATIONS = ['load', 'add', 'save', 'valueChange'] as const;
const ASSIGNMENT_TYPES = ['setValue', 'clear', 'refresh'] as const;

const setLinkage = (id: string, fn: (l: TDataLinkage) => TDataLinkage) =>
  useDesigner.getState().apply((d) => ({ ...d, dataLinkages: d.dataLinkages.map((l) => (l.id === id ? fn(l) : l)) }), `linkage:${id}`);

/** A short description for the list: what it writes or hides, when what changes. */
function summary(def: TPageDefinition, l: TDataLinkage, t: TFn): string {
  const code = (id: string | null | undefined, fallback: string | null | undefined) => allControls(def).find((c) => c.control.id === id)?.control.code ?? fallback ?? '?';
  const triggers = l.triggerConditions.map((tc) => code(tc.dataControlId, tc.dataControlCode)).join(', ');
  const effect =
    Number(l.dataLinkType) === 2
      ? l.pageStateControls.map((s) => `${s.isHide ? t('linkages.hide') : ''}${s.isReadOnly ? t('linkages.readOnly') : ''} ${s.controlObjectTitle ?? ''}`.trim()).join(', ')
      : l.assignments.map((a) => code(a.dataControlId, a.dataControlCode)).join(', ');
  return `${triggers || '—'} → ${effect || '—'}`;
}

export function LinkagesPanel() {
  const { t } = useTranslation('pageDesigner');
  const def = useDesigner((s) => s.definition);
  const openId = useDesigner((s) => s.linkageId);
  const open = def.dataLinkages.find((l) => l.id === openId) ?? null;

  const add = (type: 1 | 2) => {
    const id = newId();
    useDesigner.getState().apply((d) => ({
      ...d,
      dataLinkages: [...d.dataLinkages, { id, dataLinkType: type, triggerConditions: [{ dataControlId: null, dataControlCode: null, triggerFormula: '' }], assignments: [], pageEvents: [], pageStateControls: [] }],
    }));
    useDesigner.getState().openLinkage(id);
  };
  const remove = (id: string) => {
    useDesigner.getState().apply((d) => ({ ...d, dataLinkages: d.dataLinkages.filter((l) => l.id !== id) }));
    if (openId === id) useDesigner.getState().openLinkage(null);
  };

  return (
    <div className="dz-props-body" data-testid="linkages-panel">
      <Dropdown
        menu={{
          items: [
            { key: '1', label: t('linkages.type1') },
            { key: '2', label: t('linkages.type2') },
          ],
          onClick: ({ key }) => add(Number(key) as 1 | 2),
        }}
      >
        <Button type="dashed" block icon={<PlusOutlined />} style={{ marginBottom: 8 }}>
          {t('linkages.add')}
        </Button>
      </Dropdown>
      {def.dataLinkages.length === 0 && <Typography.Paragraph type="secondary">{t('linkages.empty')}</Typography.Paragraph>}
      <List
        size="small"
        dataSource={def.dataLinkages}
        renderItem={(l, i) => (
          <List.Item
            key={l.id ?? i}
            data-testid="linkage-item"
            className={l.id === openId ? 'dz-linkage-open' : undefined}
            style={{ cursor: 'pointer', paddingLeft: 6 }}
            onClick={() => useDesigner.getState().openLinkage(l.id === openId ? null : (l.id ?? null))}
            actions={[<Button key="d" size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('props.remove')} onClick={(e) => (e.stopPropagation(), remove(l.id!))} />]}
          >
            <Space size={4} style={{ minWidth: 0 }}>
              <Tag color={Number(l.dataLinkType) === 2 ? 'gold' : 'blue'}>{Number(l.dataLinkType) === 2 ? t('linkages.type2Short') : t('linkages.type1Short')}</Tag>
              <Typography.Text ellipsis style={{ maxWidth: 250 }}>
                {`#${i + 1} ${summary(def, l, t as unknown as TFn)}`}
              </Typography.Text>
            </Space>
          </List.Item>
        )}
      />
      {open && <LinkageEditor key={open.id} linkage={open} />}
    </div>
  );
}

function LinkageEditor({ linkage }: { linkage: TDataLinkage }) {
  const { t, i18n } = useTranslation('pageDesigner');
  const def = useDesigner((s) => s.definition);
  const id = linkage.id!;
  const controls = useMemo(() => allControls(def), [def]);
  const controlOptions = controls.map(({ control, view }) => ({ value: control.id, label: `${view.code}.${control.code} ${localizedTitle(control, i18n.language)}` }));
  const type = Number(linkage.dataLinkType) === 2 ? 2 : 1;

  const setTriggers = (next: TTriggerCondition[]) => setLinkage(id, (l) => ({ ...l, triggerConditions: next }));
  const setStates = (next: TPageStateControl[]) => setLinkage(id, (l) => ({ ...l, pageStateControls: next }));
  const setEvents = (next: TPageEvent[]) => setLinkage(id, (l) => ({ ...l, pageEvents: next }));

  // Page-state objects: controls, views and buttons.
  const objects = useMemo(() => {
    const out: { value: string; label: string; type: 'control' | 'view' | 'button'; title: string }[] = [];
    for (const v of allViews(def)) {
      out.push({ value: v.id, label: `${t('linkages.objView')} ${viewTitle(v, i18n.language)} (${v.code})`, type: 'view', title: v.code });
      for (const c of v.dataControls) out.push({ value: c.id, label: `${t('linkages.objControl')} ${v.code}.${c.code} ${localizedTitle(c, i18n.language)}`, type: 'control', title: c.code });
      for (const b of v.viewButtons) out.push({ value: b.id, label: `${t('linkages.objButton')} ${v.code}.${b.code ?? b.title}`, type: 'button', title: b.code ?? b.title });
    }
    for (const b of def.pageButtons) out.push({ value: b.id, label: `${t('linkages.objButton')} ${b.code ?? b.title}`, type: 'button', title: b.code ?? b.title });
    return out;
  }, [def, i18n.language, t]);

  return (
    <Card size="small" style={{ marginTop: 8 }} title={t('linkages.editing')} data-testid="linkage-editor">
      <Segmented
        block
        size="small"
        value={type}
        onChange={(v) => setLinkage(id, (l) => ({ ...l, dataLinkType: v as 1 | 2 }))}
        options={[
          { value: 1, label: t('linkages.type1') },
          { value: 2, label: t('linkages.type2') },
        ]}
        style={{ marginBottom: 10 }}
      />
      <Typography.Text strong>{t('linkages.triggers')}</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 6 }}>
        {t('linkages.triggersHelp')}
      </Typography.Paragraph>
      <Space direction="vertical" style={{ width: '100%' }} size={8}>
        {linkage.triggerConditions.map((tc, i) => {
          const hit = controls.find((c) => c.control.id === tc.dataControlId) ?? controls.find((c) => !tc.dataControlId && c.control.code === tc.dataControlCode);
          const set = (patch: Partial<TTriggerCondition>) => setTriggers(linkage.triggerConditions.map((x, j) => (j === i ? { ...x, ...patch } : x)));
          return (
            <div key={i} className="dz-linkage-row" data-testid="trigger-row">
              <Space.Compact style={{ width: '100%', marginBottom: 6 }}>
                <Select
                  size="small"
                  style={{ width: '100%' }}
                  showSearch={{ optionFilterProp: 'label' }}
                  placeholder={t('linkages.triggerControl')}
                  aria-label={`${t('linkages.triggerControl')} ${i + 1}`}
                  value={hit?.control.id}
                  onChange={(cid: string) => set({ dataControlId: cid, dataControlCode: controls.find((c) => c.control.id === cid)?.control.code ?? null })}
                  options={controlOptions}
                />
                <Button size="small" icon={<DeleteOutlined />} aria-label={t('props.remove')} onClick={() => setTriggers(linkage.triggerConditions.filter((_, j) => j !== i))} />
              </Space.Compact>
              <FormulaEditor
                value={tc.triggerFormula ?? ''}
                onChange={(f) => set({ triggerFormula: f })}
                schema={formulaSchemaFor(def, hit?.view ?? null)}
                references={formulaReferencesFor(def, hit?.view ?? null, i18n.language)}
                placeholder={t('linkages.triggerPlaceholder')}
                aria-label={`${t('linkages.triggerFormula')} ${i + 1}`}
                testable
              />
            </div>
          );
        })}
        <Button size="small" type="dashed" block icon={<PlusOutlined />} onClick={() => setTriggers([...linkage.triggerConditions, { dataControlId: null, dataControlCode: null, triggerFormula: '' }])}>
          {t('linkages.addTrigger')}
        </Button>
      </Space>

      {type === 1 ? (
        <>
          <Typography.Text strong style={{ display: 'block', marginTop: 12 }}>
            {t('linkages.assignments')}
          </Typography.Text>
          <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 6 }}>
            {t('linkages.assignmentsHelp')}
          </Typography.Paragraph>
          <AssignmentsEditor ctx={{ def, language: i18n.language }} value={linkage.assignments} onChange={(v) => setLinkage(id, (l) => ({ ...l, assignments: v }))} />
        </>
      ) : (
        <>
          <Typography.Text strong style={{ display: 'block', marginTop: 12 }}>
            {t('linkages.states')}
          </Typography.Text>
          <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 6 }}>
            {t('linkages.statesHelp')}
          </Typography.Paragraph>
          <Space direction="vertical" style={{ width: '100%' }} size={6}>
            {linkage.pageStateControls.map((s, i) => {
              const set = (patch: Partial<TPageStateControl>) => setStates(linkage.pageStateControls.map((x, j) => (j === i ? { ...x, ...patch } : x)));
              return (
                <div key={i} className="dz-linkage-row" data-testid="state-row">
                  <Space.Compact style={{ width: '100%', marginBottom: 4 }}>
                    <Select
                      size="small"
                      style={{ width: '100%' }}
                      showSearch={{ optionFilterProp: 'label' }}
                      placeholder={t('linkages.stateObject')}
                      aria-label={`${t('linkages.stateObject')} ${i + 1}`}
                      value={s.controlObjectId || undefined}
                      status={s.controlObjectId && !objects.some((o) => o.value === s.controlObjectId) ? 'error' : undefined}
                      onChange={(oid: string) => {
                        const o = objects.find((x) => x.value === oid);
                        set({ controlObjectId: oid, controlObjectTitle: o?.title ?? null, controlObjectType: o?.type ?? null });
                      }}
                      options={objects}
                    />
                    <Button size="small" icon={<DeleteOutlined />} aria-label={t('props.remove')} onClick={() => setStates(linkage.pageStateControls.filter((_, j) => j !== i))} />
                  </Space.Compact>
                  <Space>
                    <Checkbox checked={s.isHide} onChange={(e) => set({ isHide: e.target.checked })}>
                      {t('linkages.hide')}
                    </Checkbox>
                    <Checkbox checked={s.isReadOnly} onChange={(e) => set({ isReadOnly: e.target.checked })}>
                      {t('linkages.readOnly')}
                    </Checkbox>
                  </Space>
                </div>
              );
            })}
            <Button size="small" type="dashed" block icon={<PlusOutlined />} onClick={() => setStates([...linkage.pageStateControls, { controlObjectId: '', controlObjectTitle: null, controlObjectType: null, isHide: true, isReadOnly: false }])}>
              {t('linkages.addState')}
            </Button>
          </Space>
        </>
      )}

      <Typography.Text strong style={{ display: 'block', marginTop: 12 }}>
        {t('linkages.events')}
      </Typography.Text>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 6 }}>
        {t('linkages.eventsHelp')}
      </Typography.Paragraph>
      <Space direction="vertical" style={{ width: '100%' }} size={6}>
        {linkage.pageEvents.map((ev, i) => {
          const set = (patch: Partial<TPageEvent>) => setEvents(linkage.pageEvents.map((x, j) => (j === i ? { ...x, ...patch } : x)));
          return (
            <Space.Compact key={i} style={{ width: '100%' }} data-testid="event-row">
              <Select
                size="small"
                style={{ width: '32%' }}
                aria-label={`${t('linkages.eventWhen')} ${i + 1}`}
                value={(ev.triggerOperationType as string) ?? undefined}
                placeholder={t('linkages.eventWhen')}
                onChange={(v: string) => set({ triggerOperationType: v })}
                options={TRIGGER_OPERATIONS.map((o) => ({ value: o, label: t(`linkages.op.${o}`) }))}
              />
              <Select
                size="small"
                style={{ width: '28%' }}
                aria-label={`${t('linkages.eventDo')} ${i + 1}`}
                value={(ev.assignmentType as string) ?? undefined}
                placeholder={t('linkages.eventDo')}
                onChange={(v: string) => set({ assignmentType: v })}
                options={ASSIGNMENT_TYPES.map((o) => ({ value: o, label: t(`linkages.do.${o}`) }))}
              />
              <Select
                size="small"
                style={{ width: '40%' }}
                showSearch={{ optionFilterProp: 'label' }}
                aria-label={`${t('linkages.eventControl')} ${i + 1}`}
                placeholder={t('linkages.eventControl')}
                value={ev.bingDataControlId ?? undefined}
                onChange={(v: string) => set({ bingDataControlId: v })}
                options={controlOptions}
              />
              <Button size="small" icon={<DeleteOutlined />} aria-label={t('props.remove')} onClick={() => setEvents(linkage.pageEvents.filter((_, j) => j !== i))} />
            </Space.Compact>
          );
        })}
        <Button size="small" type="dashed" block icon={<PlusOutlined />} onClick={() => setEvents([...linkage.pageEvents, { triggerOperationType: 'valueChange', assignmentType: 'setValue', bingDataControlId: null }])}>
          {t('linkages.addEvent')}
        </Button>
      </Space>
    </Card>
  );
}
