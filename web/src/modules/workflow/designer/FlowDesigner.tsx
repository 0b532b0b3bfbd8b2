import {
  Background,
  BackgroundVariant,
  Controls,
  MarkerType,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { Badge, ConfigProvider, Tabs } from 'antd';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { checkGraph, problemsByElement, type GraphProblem } from './graph-checks.ts';
import { detourLane, layoutGraph, nodeHeight, NODE_WIDTH } from './graph-layout.ts';
import { localizeDefaultNames, type WfEdge, type WfGraph, type WfNodeType } from './graph-model.ts';
import { addAfter, addNode, connect, connectRefusal, insertOnEdge, moveNodes, removeElements, updateEdge, updateNode } from './graph-ops.ts';
import { PALETTE_TYPES } from './node-style.ts';
import { createHistory, push, redo, undo, type History } from '../../../shared/ui/undo-history.ts';
import { edgeTypes, nodeTypes, type NodeProgress, type WfFlowEdge, type WfFlowNode } from './FlowElements.tsx';
import { edgeLabel, nodeSummary, type NameBook } from './node-summary.ts';
import { NodePalette, PALETTE_MIME } from './NodePalette.tsx';
import type { PageFields } from './page-fields.ts';
import { ProblemsList } from './ProblemsList.tsx';
import { PropertiesPanel, type Selection } from './PropertiesPanel.tsx';
import { useFlowColours } from './flow-colours.ts';
import './flow-designer.css';

export interface FlowDesignerHandle {
  graph: WfGraph;
  dirty: boolean;
  problems: GraphProblem[];
  undo(): void;
  redo(): void;
  layout(): void;
  removeSelection(): void;
  canUndo: boolean;
  canRedo: boolean;
  hasSelection: boolean;
  /** The graph now counts as saved (after a save). */
  markSaved(graph: WfGraph): void;
  showProblems(): void;
}

export interface FlowDesignerProps {
  initialGraph: WfGraph;
  readOnly?: boolean;
  names: NameBook;
  page: PageFields;
  definitionCondition?: string | null;
  /** Instance progress per node id (the read-only view of a running flow). */
  progress?: Record<string, NodeProgress>;
  /** Problems the server reported (a refused publish) beside the ones found here. */
  serverProblems?: GraphProblem[];
  /** The toolbar lives outside the canvas: it gets the current state and commands on every change. */
  onState?(handle: FlowDesignerHandle): void;
  /** Ctrl+S. */
  onSaveShortcut?(): void;
}

/** Nodes from the server keep their positions unless they overlap (a fresh or imported graph): then dagre lays them out. */
function withLayout(graph: WfGraph): WfGraph {
  const seen = new Set<string>();
  for (const n of graph.nodes) {
    const key = `${Math.round(n.position.x / 40)}:${Math.round(n.position.y / 40)}`;
    if (seen.has(key)) return layoutGraph(graph);
    seen.add(key);
  }
  return graph;
}

const isTyping = (target: EventTarget | null) => {
  const el = target as HTMLElement | null;
  return Boolean(el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable || el.closest('.cm-editor')));
};

/**
 * The workflow canvas (`@xyflow/react`): palette, canvas with DingTalk-style node cards and branch
 * labels, properties and problems. Edits go through the pure operations of `graph-ops.ts` into a
 * bounded undo history; the graph is checked by the core validator as it changes.
 */
export function FlowDesigner(props: FlowDesignerProps) {
  return (
    <ReactFlowProvider>
      <FlowDesignerInner {...props} />
    </ReactFlowProvider>
  );
}

function FlowDesignerInner({ initialGraph, readOnly = false, names, page, definitionCondition, progress, serverProblems = [], onState, onSaveShortcut }: FlowDesignerProps) {
  const { t } = useTranslation('workflow');
  const flow = useReactFlow();
  const [history, setHistory] = useState<History<WfGraph>>(() => createHistory(withLayout(localizeDefaultNames(initialGraph, (type) => t(`nodeTypes.${type}`)))));
  const graph = history.present;
  const [saved, setSaved] = useState<WfGraph>(graph);
  const [selection, setSelection] = useState<Selection>(null);
  const [dragging, setDragging] = useState<Record<string, { x: number; y: number }>>({});
  const [sideTab, setSideTab] = useState<'properties' | 'problems'>('properties');
  const [announcement, setAnnouncement] = useState('');
  const dragSession = useRef(0);
  const { dark } = useFlowColours();

  const commit = useCallback((fn: (g: WfGraph) => WfGraph, mergeKey?: string) => setHistory((h) => push(h, fn(h.present), mergeKey)), []);
  const announce = useCallback((text: string) => setAnnouncement(text), []);
  const typeLabel = useCallback((type: WfNodeType) => t(`nodeTypes.${type}`), [t]);
  const nameOf = useCallback((id: string) => graph.nodes.find((n) => n.id === id)?.name ?? id, [graph]);

  // ---- checks
  const checked = useDeferredValue(graph);
  const problems = useMemo(() => {
    const found = checkGraph(checked, {
      formulaSchema: page.fields.length ? page.formulaSchema : undefined,
      fields: page.fields.length ? page.refs : undefined,
      masterFields: page.fields.length ? page.masterRefs : undefined,
      pickerFields: page.fields.length ? page.pickerRefs : undefined,
      definitionCondition,
    });
    const local = new Set(found.map((p) => `${p.code}:${p.nodeId}:${p.edgeId}`));
    return [...found, ...serverProblems.filter((p) => !local.has(`${p.code}:${p.nodeId}:${p.edgeId}`) && (!p.nodeId || checked.nodes.some((n) => n.id === p.nodeId)))];
  }, [checked, page, definitionCondition, serverProblems]);
  const problemText = useCallback((p: GraphProblem) => p.message ?? t(`problemCodes.${p.code}`, { ...p.params, defaultValue: p.code }), [t]);
  const byElement = useMemo(() => problemsByElement(problems), [problems]);

  // ---- selection and removal
  const removeSelection = useCallback(() => {
    if (readOnly || !selection) return;
    const node = selection.kind === 'node' ? graph.nodes.find((n) => n.id === selection.id) : undefined;
    if (node?.type === 'start') return announce(t('designer.startCannotDelete'));
    commit((g) => (selection.kind === 'node' ? removeElements(g, [selection.id]) : removeElements(g, [], [selection.id])));
    setSelection(null);
    announce(t('designer.announce.removed', { count: 1 }));
  }, [readOnly, selection, graph, commit, announce, t]);

  const select = useCallback(
    (next: Selection) => {
      setSelection(next);
      if (next) setSideTab('properties');
      if (next?.kind === 'node') {
        const n = graph.nodes.find((x) => x.id === next.id);
        if (n) announce(t('designer.announce.selected', { type: typeLabel(n.type), name: n.name }));
      } else if (next?.kind === 'edge') {
        const e = graph.edges.find((x) => x.id === next.id);
        if (e) announce(t('designer.announce.selectedEdge', { from: nameOf(e.source), to: nameOf(e.target) }));
      }
    },
    [graph, announce, t, typeLabel, nameOf],
  );

  const doUndo = useCallback(() => {
    setHistory((h) => undo(h));
    announce(t('designer.announce.undone'));
  }, [announce, t]);
  const doRedo = useCallback(() => {
    setHistory((h) => redo(h));
    announce(t('designer.announce.redone'));
  }, [announce, t]);
  const doLayout = useCallback(() => {
    commit((g) => layoutGraph(g));
    announce(t('designer.announce.laidOut'));
    setTimeout(() => void flow.fitView({ padding: 0.15, duration: 200 }), 50);
  }, [commit, announce, t, flow]);

  // Drop a selection whose element an undo removed.
  useEffect(() => {
    if (selection?.kind === 'node' && !graph.nodes.some((n) => n.id === selection.id)) setSelection(null);
    if (selection?.kind === 'edge' && !graph.edges.some((e) => e.id === selection.id)) setSelection(null);
  }, [graph, selection]);

  // ---- adding
  const addFromPalette = useCallback(
    (type: WfNodeType) => {
      if (readOnly) return;
      const name = typeLabel(type);
      const added = addAfter(graph, selection?.kind === 'node' ? selection.id : null, type, { node: name, join: typeLabel('join') });
      if (!added) return;
      commit(() => layoutGraph(added.graph));
      setSelection({ kind: 'node', id: added.id });
      announce(t('designer.announce.added', { type: name, name }));
      setTimeout(() => void flow.fitView({ padding: 0.15, duration: 200, maxZoom: 1 }), 50);
    },
    [readOnly, graph, selection, typeLabel, commit, announce, t, flow],
  );

  /** The "+" on an edge: a node of the type on it (source → new → target). */
  const insertOn = useCallback(
    (edgeId: string, type: string) => {
      if (readOnly) return;
      const name = typeLabel(type as WfNodeType);
      const added = insertOnEdge(graph, edgeId, type as WfNodeType, name, typeLabel('join'));
      if (!added) return;
      commit(() => layoutGraph(added.graph));
      setSelection({ kind: 'node', id: added.id });
      announce(t('designer.announce.added', { type: name, name }));
      setTimeout(() => void flow.fitView({ padding: 0.15, duration: 200, maxZoom: 1 }), 50);
    },
    [readOnly, graph, typeLabel, commit, announce, t, flow],
  );
  const insertItems = useMemo(() => PALETTE_TYPES.filter((type) => type !== 'end' && type !== 'join').map((type) => ({ key: type, label: typeLabel(type) })), [typeLabel]);

  const onDrop = useCallback(
    (e: DragEvent) => {
      const type = e.dataTransfer.getData(PALETTE_MIME) as WfNodeType;
      if (!type || readOnly) return;
      e.preventDefault();
      const p = flow.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      const name = typeLabel(type);
      const added = addNode(graph, type, name, { x: Math.round(p.x - NODE_WIDTH / 2), y: Math.round(p.y - nodeHeight(type) / 2) });
      commit(() => added.graph);
      setSelection({ kind: 'node', id: added.id });
      announce(t('designer.announce.added', { type: name, name }));
    },
    [flow, readOnly, graph, typeLabel, commit, announce, t],
  );

  // ---- canvas changes
  const draggingRef = useRef<Record<string, { x: number; y: number }>>({});
  const onNodesChange = useCallback(
    (changes: NodeChange<WfFlowNode>[]) => {
      let ended = false;
      for (const c of changes) {
        if (c.type === 'select' && c.selected) select({ kind: 'node', id: c.id });
        if (c.type !== 'position' || readOnly) continue;
        if (c.position) draggingRef.current = { ...draggingRef.current, [c.id]: c.position };
        if (!c.dragging) ended = true;
      }
      if (!changes.some((c) => c.type === 'position')) return;
      if (!ended) return setDragging(draggingRef.current);
      // A drag (or an arrow-key move) ended: one undo step.
      const moved = draggingRef.current;
      draggingRef.current = {};
      setDragging({});
      if (Object.keys(moved).length) {
        dragSession.current += 1;
        commit((g) => moveNodes(g, moved), `move:${dragSession.current}`);
      }
    },
    [select, readOnly, commit],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange<WfFlowEdge>[]) => {
      for (const c of changes) if (c.type === 'select' && c.selected) select({ kind: 'edge', id: c.id });
    },
    [select],
  );

  const onConnect = useCallback(
    (c: Connection) => {
      if (readOnly) return;
      const refusal = connectRefusal(graph, c.source, c.target);
      if (refusal) return announce(t(`designer.connectRefused.${refusal}`));
      commit((g) => connect(g, c.source, c.target)?.graph ?? g);
      announce(t('designer.announce.connected', { from: nameOf(c.source), to: nameOf(c.target) }));
    },
    [readOnly, graph, commit, announce, t, nameOf],
  );

  // ---- keyboard
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === 's') {
        e.preventDefault();
        onSaveShortcut?.();
        return;
      }
      if (readOnly || isTyping(e.target)) return;
      if (mod && e.key.toLowerCase() === 'z') {
        e.preventDefault();
        if (e.shiftKey) doRedo();
        else doUndo();
      } else if (mod && e.key.toLowerCase() === 'y') {
        e.preventDefault();
        doRedo();
      } else if ((e.key === 'Delete' || e.key === 'Backspace') && selection) {
        e.preventDefault();
        removeSelection();
      } else if (e.key === 'Escape') setSelection(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [readOnly, selection, doUndo, doRedo, removeSelection, onSaveShortcut]);

  // ---- state for the toolbar outside
  const dirty = graph !== saved;
  useEffect(() => {
    onState?.({
      graph,
      dirty,
      problems,
      undo: doUndo,
      redo: doRedo,
      layout: doLayout,
      removeSelection,
      canUndo: history.past.length > 0,
      canRedo: history.future.length > 0,
      hasSelection: Boolean(selection) && !(selection?.kind === 'node' && graph.nodes.find((n) => n.id === selection.id)?.type === 'start'),
      markSaved: (g) => setSaved(g),
      showProblems: () => setSideTab('problems'),
    });
  }, [onState, graph, dirty, problems, doUndo, doRedo, doLayout, removeSelection, history, selection]);

  // ---- React Flow elements
  const rfNodes = useMemo<WfFlowNode[]>(
    () =>
      graph.nodes.map((n) => {
        const summary = nodeSummary(t, n, names);
        const own = byElement.get(n.id)?.filter((p) => !p.edgeId) ?? [];
        const height = nodeHeight(n.type);
        return {
          id: n.id,
          type: 'wf',
          position: dragging[n.id] ?? n.position,
          width: NODE_WIDTH,
          height,
          measured: { width: NODE_WIDTH, height },
          selected: selection?.kind === 'node' && selection.id === n.id,
          draggable: !readOnly,
          connectable: !readOnly,
          ariaLabel: `${t('designer.nodeAria', { type: typeLabel(n.type), name: n.name, summary: summary.text })}${own.length ? ` ${t('designer.nodeProblems', { count: own.length })}` : ''}`,
          data: { node: n, typeLabel: typeLabel(n.type), hint: t(`nodeHints.${n.type}`), summary: summary.text, summaryEmpty: summary.empty, problems: own.map(problemText), progress: progress?.[n.id], readOnly },
        };
      }),
    [graph, dragging, selection, readOnly, t, names, byElement, problemText, typeLabel, progress],
  );

  const rfEdges = useMemo<WfFlowEdge[]>(() => {
    const boxes = new Map(graph.nodes.map((n) => [n.id, { ...(dragging[n.id] ?? n.position), width: NODE_WIDTH, height: nodeHeight(n.type) }]));
    return graph.edges.map((e: WfEdge) => {
        const from = graph.nodes.find((n) => n.id === e.source);
        const sourceBox = boxes.get(e.source);
        const targetBox = boxes.get(e.target);
        const lane = sourceBox && targetBox ? detourLane(sourceBox, targetBox, [...boxes].filter(([id]) => id !== e.source && id !== e.target).map(([, b]) => b)) : null;
        const label = edgeLabel(t, e, from?.type === 'exclusive');
        return {
          id: e.id,
          source: e.source,
          target: e.target,
          type: 'wf',
          selected: selection?.kind === 'edge' && selection.id === e.id,
          markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16, color: '#a0a8b8' },
          ariaLabel: t('designer.a11y.edgeLabel', { from: nameOf(e.source), to: nameOf(e.target), label: label ? `：${label.text}` : '' }),
          data: { label, priority: e.priority, lane, hasProblem: byElement.has(e.id), defaultText: t('summary.conditionDefault'),
            readOnly,
            insertItems,
            insertLabel: t('designer.insertOnEdge'),
            onSelect: (id: string) => select({ kind: 'edge', id }),
            onInsert: insertOn,
          },
        };
      });
  }, [graph, dragging, selection, t, byElement, select, nameOf, readOnly, insertItems, insertOn]);

  const ariaLabelConfig = useMemo(
    () => ({
      'node.a11yDescription.default': t('designer.a11y.node'),
      'node.a11yDescription.keyboardDisabled': t('designer.a11y.nodeKeyboardDisabled'),
      'node.a11yDescription.ariaLiveMessage': ({ direction, x, y }: { direction: string; x: number; y: number }) =>
        t('designer.a11y.moved', { direction: t(`designer.a11y.directions.${direction}`, { defaultValue: direction }), x: Math.round(x), y: Math.round(y) }),
      'edge.a11yDescription.default': t('designer.a11y.edge'),
      'controls.ariaLabel': t('designer.a11y.controls'),
      'controls.zoomIn.ariaLabel': t('designer.a11y.zoomIn'),
      'controls.zoomOut.ariaLabel': t('designer.a11y.zoomOut'),
      'controls.fitView.ariaLabel': t('designer.a11y.fitView'),
      'controls.interactive.ariaLabel': t('designer.a11y.interactive'),
      'minimap.ariaLabel': t('designer.a11y.minimap'),
      'handle.ariaLabel': t('designer.a11y.handle'),
    }),
    [t],
  );

  const pick = (p: GraphProblem) => {
    if (p.edgeId) select({ kind: 'edge', id: p.edgeId });
    else if (p.nodeId) {
      select({ kind: 'node', id: p.nodeId });
      const n = graph.nodes.find((x) => x.id === p.nodeId);
      if (n) void flow.setCenter(n.position.x + NODE_WIDTH / 2, n.position.y + nodeHeight(n.type) / 2, { zoom: Math.max(flow.getZoom(), 0.9), duration: 250 });
    }
  };

  return (
    <div className={`wf-designer${readOnly ? ' is-readonly' : ''}`}>
      {!readOnly && <NodePalette onAdd={addFromPalette} />}
      <div className="wf-canvas" onDragOver={(e) => (e.preventDefault(), (e.dataTransfer.dropEffect = 'copy'))} onDrop={onDrop} aria-label={t('designer.canvasLabel')} role="region">
        <ReactFlow<WfFlowNode, WfFlowEdge>
          nodes={rfNodes}
          edges={rfEdges}
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          onConnect={onConnect}
          isValidConnection={(c) => !readOnly && connectRefusal(graph, c.source, c.target) === null}
          onPaneClick={() => setSelection(null)}
          nodesDraggable={!readOnly}
          nodesConnectable={!readOnly}
          elementsSelectable
          deleteKeyCode={null}
          multiSelectionKeyCode={null}
          selectionKeyCode={null}
          fitView
          fitViewOptions={{ padding: 0.15, maxZoom: 1 }}
          minZoom={0.2}
          maxZoom={2}
          snapToGrid
          snapGrid={[10, 10]}
          ariaLabelConfig={ariaLabelConfig}
          colorMode={dark ? 'dark' : 'light'}
        >
          <Background variant={BackgroundVariant.Dots} gap={16} size={1} color="#c9ced6" />
          <Controls showInteractive={false} position="bottom-left" />
          <MiniMap pannable zoomable position="bottom-right" nodeColor={(n) => (n as WfFlowNode).data?.problems?.length ? '#ff7875' : '#b9c3d3'} nodeStrokeWidth={2} className="wf-minimap" />
        </ReactFlow>
      </div>
      <aside className="wf-side" aria-label={t('designer.properties')}>
        <ConfigProvider componentDisabled={readOnly}>
        <Tabs
          size="small"
          activeKey={sideTab}
          onChange={(k) => setSideTab(k as 'properties' | 'problems')}
          items={[
            {
              key: 'properties',
              label: t('designer.properties'),
              children: (
                <PropertiesPanel
                  graph={graph}
                  selection={selection}
                  readOnly={readOnly}
                  names={names}
                  page={page}
                  onNodeChange={(id, patch, key) => commit((g) => updateNode(g, id, patch), key)}
                  onEdgeChange={(id, patch, key) => commit((g) => updateEdge(g, id, patch), key)}
                  onDelete={removeSelection}
                  onConnect={(source, target) => onConnect({ source, target, sourceHandle: null, targetHandle: null })}
                />
              ),
            },
            {
              key: 'problems',
              label: (
                <span data-testid="wf-problems-tab">
                  {t('designer.problems')} <Badge count={problems.length} size="small" showZero color={problems.length ? '#ff4d4f' : '#52c41a'} />
                </span>
              ),
              children: <ProblemsList problems={problems} graph={graph} text={problemText} onPick={pick} />,
            },
          ]}
        />
        </ConfigProvider>
      </aside>
      <div className="wf-live" aria-live="polite" role="status">
        {announcement}
      </div>
    </div>
  );
}

