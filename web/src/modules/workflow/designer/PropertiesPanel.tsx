import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Empty, Input, InputNumber, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormulaEditor } from '../../../shared/components/formula-editor/FormulaEditor.tsx';
import { ApprovalProperties, Field } from './ApprovalProperties.tsx';
import { AssigneesEditor } from './AssigneesEditor.tsx';
import type { WfEdge, WfGraph, WfNode } from './graph-model.ts';
import { connectRefusal } from './graph-ops.ts';
import type { NameBook } from './node-summary.ts';
import type { PageFields } from './page-fields.ts';

export type Selection = { kind: 'node'; id: string } | { kind: 'edge'; id: string } | null;

interface Props {
  graph: WfGraph;
  selection: Selection;
  readOnly: boolean;
  names: NameBook;
  page: PageFields;
  onNodeChange(id: string, patch: { name?: string; config?: Record<string, unknown> }, mergeKey?: string): void;
  onEdgeChange(id: string, patch: Partial<WfEdge>, mergeKey?: string): void;
  onDelete(): void;
  /** Draws an edge from the selected node (the keyboard's way to connect). */
  onConnect(source: string, target: string): void;
}

/** The selected node's or edge's settings. */
export function PropertiesPanel({ graph, selection, readOnly, names, page, onNodeChange, onEdgeChange, onDelete, onConnect }: Props) {
  const { t } = useTranslation('workflow');
  const node = selection?.kind === 'node' ? graph.nodes.find((n) => n.id === selection.id) : undefined;
  const edge = selection?.kind === 'edge' ? graph.edges.find((e) => e.id === selection.id) : undefined;
  if (!node && !edge) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('designer.selectHint')} />;
  return (
    <fieldset disabled={readOnly} className="wf-props" data-testid="wf-properties">
      {node ? (
        <NodeProperties node={node} names={names} page={page} readOnly={readOnly} onChange={(patch, key) => onNodeChange(node.id, patch, key)} />
      ) : (
        <EdgeProperties edge={edge!} graph={graph} page={page} readOnly={readOnly} onChange={(patch, key) => onEdgeChange(edge!.id, patch, key)} />
      )}
      {!readOnly && node && node.type !== 'end' && (
        <div className="wf-field" style={{ marginTop: 12 }}>
          <div className="wf-field-label">{t('props.connectTo')}</div>
          <Select
            value={null}
            placeholder={t('props.connectToPlaceholder')}
            aria-label={t('props.connectTo')}
            style={{ width: '100%' }}
            showSearch={{ optionFilterProp: 'label' }}
            options={graph.nodes.filter((n) => connectRefusal(graph, node.id, n.id) === null).map((n) => ({ value: n.id, label: `${n.name} · ${t(`nodeTypes.${n.type}`)}` }))}
            onChange={(target: string) => onConnect(node.id, target)}
            data-testid="wf-connect-to"
          />
        </div>
      )}
      {!readOnly && node?.type !== 'start' && (
        <Button danger icon={<DeleteOutlined />} block onClick={onDelete} style={{ marginTop: 16 }}>
          {node ? t('props.deleteNode') : t('props.deleteEdge')}
        </Button>
      )}
    </fieldset>
  );
}

function NodeProperties({ node, names, page, readOnly, onChange }: { node: WfNode; names: NameBook; page: PageFields; readOnly: boolean; onChange(patch: { name?: string; config?: Record<string, unknown> }, mergeKey?: string): void }) {
  const { t } = useTranslation('workflow');
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t(`nodeTypes.${node.type}`)}
      </Typography.Title>
      <Field label={t('props.name')}>
        <Input value={node.name} maxLength={100} onChange={(e) => onChange({ name: e.target.value }, `name:${node.id}`)} aria-label={t('props.name')} data-testid="wf-node-name" />
      </Field>
      {node.type === 'approval' && <ApprovalProperties config={node.config} onChange={(config, key) => onChange({ config }, key && `${key}:${node.id}`)} names={names} fields={page.fields} />}
      {node.type === 'cc' && (
        <Field label={t('props.recipients')}>
          <AssigneesEditor value={node.config.recipients} onChange={(recipients) => onChange({ config: { recipients } })} names={names} fields={page.fields} label={t('props.recipients')} />
        </Field>
      )}
      {node.type === 'automatic' && (
        <Field label={t('props.assignments')}>
          {node.config.assignments.map((a, i) => (
            <div className="wf-assignment" key={i}>
              <Space.Compact style={{ width: '100%' }}>
                <Select
                  value={a.controlCode || undefined}
                  placeholder={t('props.control')}
                  aria-label={t('props.control')}
                  options={page.fields.filter((f) => f.isMaster).map((f) => ({ value: f.ref, label: `${f.title} (${f.ref})` }))}
                  onChange={(controlCode: string) => onChange({ config: { assignments: node.config.assignments.map((x, j) => (j === i ? { ...x, controlCode } : x)) } })}
                  style={{ flex: 1 }}
                  showSearch={{ optionFilterProp: 'label' }}
                />
                <Button icon={<DeleteOutlined />} aria-label={t('props.removeAssignee')} onClick={() => onChange({ config: { assignments: node.config.assignments.filter((_, j) => j !== i) } })} />
              </Space.Compact>
              <FormulaEditor
                value={a.formula}
                onChange={(formula) => onChange({ config: { assignments: node.config.assignments.map((x, j) => (j === i ? { ...x, formula } : x)) } }, `assign:${node.id}:${i}`)}
                references={page.references}
                schema={page.formulaSchema}
                readOnly={readOnly}
                aria-label={t('props.formula')}
              />
            </div>
          ))}
          <Button type="dashed" block icon={<PlusOutlined />} onClick={() => onChange({ config: { assignments: [...node.config.assignments, { controlCode: '', formula: '' }] } })}>
            {t('props.addAssignment')}
          </Button>
        </Field>
      )}
      {node.type === 'exclusive' && <Alert type="info" showIcon title={t('props.exclusiveHint')} />}
      {(node.type === 'parallel' || node.type === 'join') && <Alert type="info" showIcon title={node.type === 'parallel' ? t('props.gatewayHint') : t('nodeHints.join')} />}
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 12 }}>
        {t('props.nodeId')}: <Typography.Text code>{node.id}</Typography.Text>
      </Typography.Paragraph>
    </>
  );
}

function EdgeProperties({ edge, graph, page, readOnly, onChange }: { edge: WfEdge; graph: WfGraph; page: PageFields; readOnly: boolean; onChange(patch: Partial<WfEdge>, mergeKey?: string): void }) {
  const { t } = useTranslation('workflow');
  const from = graph.nodes.find((n) => n.id === edge.source);
  const to = graph.nodes.find((n) => n.id === edge.target);
  const isBranch = from?.type === 'exclusive';
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('props.edge')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {t('props.from')} <b>{from?.name}</b> {t('props.to')} <b>{to?.name}</b>
      </Typography.Paragraph>
      <Field label={t('props.edgeName')}>
        <Input value={edge.name ?? ''} maxLength={100} onChange={(e) => onChange({ name: e.target.value || undefined }, `edge-name:${edge.id}`)} aria-label={t('props.edgeName')} />
      </Field>
      {isBranch ? (
        <>
          <div className="wf-field">
            <Checkbox checked={Boolean(edge.isDefault)} onChange={(e) => onChange({ isDefault: e.target.checked })} data-testid="wf-edge-default">
              {t('props.isDefault')}
            </Checkbox>
          </div>
          {!edge.isDefault && (
            <Field label={t('props.condition')}>
              <FormulaEditor
                value={edge.condition ?? ''}
                onChange={(condition) => onChange({ condition }, `condition:${edge.id}`)}
                references={page.references}
                schema={page.formulaSchema}
                placeholder={t('props.conditionHint')}
                readOnly={readOnly}
                aria-label={t('props.condition')}
                testable
              />
            </Field>
          )}
          <Field label={t('props.priority')}>
            <InputNumber min={0} max={10000} value={edge.priority ?? 0} onChange={(v) => onChange({ priority: v ?? 0 }, `priority:${edge.id}`)} style={{ width: '100%' }} aria-label={t('props.priority')} />
          </Field>
        </>
      ) : (
        <Alert type="info" showIcon title={t('props.notABranch')} />
      )}
    </>
  );
}
