/*
 * BPMN 2.0 XML export and import through bpmn-moddle, so a definition can travel to Camunda /
 * Flowable modelers and back. What maps to BPMN is written as BPMN:
 *
 *   start → startEvent, end → endEvent, approval → userTask (会签 / 票签 / 依次 as
 *   multiInstanceLoopCharacteristics: parallel, with a completion condition, sequential), CC →
 *   sendTask, automatic → scriptTask (scriptFormat `tessera-formula`, one `code = formula` line per
 *   assignment), exclusive → exclusiveGateway (its `default` flow), parallel / join →
 *   parallelGateway (diverging / converging), edges → sequenceFlow with the condition as a
 *   formalExpression in language `tessera-formula`; positions as BPMN DI shapes and edges.
 *
 * Everything else of Tessera's (assignees, modes, field permissions, actions, timeouts, ids,
 * priorities; the definition's page and condition) rides in a `tessera:config` extension element
 * holding JSON, so a Tessera → BPMN → Tessera round trip gives the same definition. A file from
 * another modeler has no such element: its elements map by type with default configurations, and
 * what has no Tessera meaning (sub-processes, intermediate events, event gateways…) is a 400.
 */
// The declaration travels with the import: bench and e2e compile this file in their own projects.
/// <reference path="../../types/bpmn-moddle.d.ts" />
import { BpmnModdle, type ModdleElement } from 'bpmn-moddle';
import { ZWorkflowEdge, ZWorkflowGraph, ZWorkflowNode, WORKFLOW_LIMITS, type TWorkflowEdge, type TWorkflowGraph, type TWorkflowNode, type TWorkflowNodeType } from '@tessera/core/contracts/workflow';
import { newWorkflowNode } from '@tessera/core/workflow/defaults';
import { z } from 'zod';
import { replaceIllFormedText } from '@tessera/core/contracts/text';
import type { ServiceContext } from '../../platform/context.ts';
import { workflowInvalid } from './workflow.messages.ts';

const NS = 'urn:tessera:bpmn:1';
export const FORMULA_LANGUAGE = 'tessera-formula';

/** The moddle package of Tessera's extension element: `<tessera:config kind="node">{json}</tessera:config>`. */
const TESSERA_PACKAGE = {
  name: 'Tessera',
  uri: NS,
  prefix: 'tessera',
  xml: { tagAlias: 'lowerCase' },
  types: [
    {
      name: 'Config',
      superClass: ['Element'],
      properties: [
        { name: 'kind', isAttr: true, type: 'String' },
        { name: 'body', isBody: true, type: 'String' },
      ],
    },
  ],
};

const moddle = () => new BpmnModdle({ tessera: TESSERA_PACKAGE });

export interface BpmnDefinition {
  id: string;
  name: string;
  description: string | null;
  condition: string | null;
  pageId: string;
  pageCode: string | null;
  graph: TWorkflowGraph;
}

// ---------------------------------------------------------------- export

const SIZES: Record<TWorkflowNodeType, { w: number; h: number }> = {
  start: { w: 36, h: 36 },
  end: { w: 36, h: 36 },
  exclusive: { w: 50, h: 50 },
  parallel: { w: 50, h: 50 },
  join: { w: 50, h: 50 },
  approval: { w: 100, h: 80 },
  cc: { w: 100, h: 80 },
  automatic: { w: 100, h: 80 },
};

/** An XML id (NCName) for a Tessera id: ids that start with a digit or `-` get a `_` in front. */
const xmlId = (id: string) => (/^[A-Za-z_]/.test(id) ? id : `_${id}`);

export async function workflowToBpmn(d: BpmnDefinition): Promise<string> {
  const m = moddle();
  const config = (kind: string, value: unknown) =>
    m.create('bpmn:ExtensionElements', { values: [m.create('tessera:Config', { kind, body: JSON.stringify(value) })] });
  const nodeIds = new Map(d.graph.nodes.map((n) => [n.id, xmlId(n.id)]));

  const elements = new Map<string, ModdleElement>();
  for (const node of d.graph.nodes) {
    const props: Record<string, unknown> = { id: nodeIds.get(node.id), name: node.name, extensionElements: config('node', { id: node.id, type: node.type, config: node.config }) };
    let element: ModdleElement;
    switch (node.type) {
      case 'start':
        element = m.create('bpmn:StartEvent', props);
        break;
      case 'end':
        element = m.create('bpmn:EndEvent', props);
        break;
      case 'approval': {
        const c = node.config;
        if (c.mode !== 'or') {
          const loop: Record<string, unknown> = { isSequential: c.mode === 'sequential' };
          if (c.mode === 'vote') {
            loop.completionCondition = m.create('bpmn:FormalExpression', { body: `\${nrOfApprovedInstances / nrOfInstances >= ${(c.votePassPercent ?? 100) / 100}}` });
          }
          props.loopCharacteristics = m.create('bpmn:MultiInstanceLoopCharacteristics', loop);
        }
        element = m.create('bpmn:UserTask', props);
        break;
      }
      case 'cc':
        element = m.create('bpmn:SendTask', props);
        break;
      case 'automatic':
        element = m.create('bpmn:ScriptTask', {
          ...props,
          scriptFormat: FORMULA_LANGUAGE,
          script: node.config.assignments.map((a) => `${a.controlCode} = ${a.formula.replace(/\r?\n/g, ' ')}`).join('\n'),
        });
        break;
      case 'exclusive':
        element = m.create('bpmn:ExclusiveGateway', { ...props, gatewayDirection: 'Diverging' });
        break;
      case 'parallel':
        element = m.create('bpmn:ParallelGateway', { ...props, gatewayDirection: 'Diverging' });
        break;
      case 'join':
        element = m.create('bpmn:ParallelGateway', { ...props, gatewayDirection: 'Converging' });
        break;
    }
    elements.set(node.id, element);
  }

  const usedIds = new Set(nodeIds.values());
  const flows: ModdleElement[] = [];
  const flowOf = new Map<string, ModdleElement>();
  for (const edge of d.graph.edges) {
    const source = elements.get(edge.source);
    const target = elements.get(edge.target);
    if (!source || !target) continue; // a dangling edge of a draft has no BPMN form
    let id = xmlId(edge.id);
    while (usedIds.has(id)) id = `${id}_flow`;
    usedIds.add(id);
    const flow = m.create('bpmn:SequenceFlow', {
      id,
      name: edge.name,
      sourceRef: source,
      targetRef: target,
      extensionElements: config('edge', { id: edge.id, priority: edge.priority, isDefault: edge.isDefault }),
    });
    if (edge.condition && edge.condition.trim() !== '' && !edge.isDefault) {
      flow.conditionExpression = m.create('bpmn:FormalExpression', { language: FORMULA_LANGUAGE, body: edge.condition });
    }
    if (edge.isDefault && source.$type === 'bpmn:ExclusiveGateway') source.default = flow;
    (source.outgoing as ModdleElement[] | undefined) ? (source.outgoing as ModdleElement[]).push(flow) : (source.outgoing = [flow]);
    (target.incoming as ModdleElement[] | undefined) ? (target.incoming as ModdleElement[]).push(flow) : (target.incoming = [flow]);
    flows.push(flow);
    flowOf.set(edge.id, flow);
  }

  const processId = `Process_${d.id.replace(/-/g, '')}`;
  const process = m.create('bpmn:Process', {
    id: processId,
    name: d.name,
    isExecutable: true,
    documentation: d.description ? [m.create('bpmn:Documentation', { text: d.description })] : [],
    extensionElements: config('definition', { pageId: d.pageId, pageCode: d.pageCode, condition: d.condition, description: d.description }),
    flowElements: [...elements.values(), ...flows],
  });

  // Diagram interchange: where each node sits (its top-left corner, as on the canvas) and each flow's line.
  const planeElements: ModdleElement[] = [];
  const centre = (node: TWorkflowNode) => ({ x: node.position.x + SIZES[node.type].w / 2, y: node.position.y + SIZES[node.type].h / 2 });
  const byId = new Map(d.graph.nodes.map((n) => [n.id, n]));
  for (const node of d.graph.nodes) {
    const size = SIZES[node.type];
    planeElements.push(
      m.create('bpmndi:BPMNShape', {
        id: `${nodeIds.get(node.id)}_di`,
        bpmnElement: elements.get(node.id),
        bounds: m.create('dc:Bounds', { x: node.position.x, y: node.position.y, width: size.w, height: size.h }),
      }),
    );
  }
  for (const edge of d.graph.edges) {
    const flow = flowOf.get(edge.id);
    if (!flow) continue;
    const a = centre(byId.get(edge.source)!);
    const b = centre(byId.get(edge.target)!);
    planeElements.push(
      m.create('bpmndi:BPMNEdge', {
        id: `${String(flow.id)}_di`,
        bpmnElement: flow,
        waypoint: [m.create('dc:Point', a), m.create('dc:Point', b)],
      }),
    );
  }
  const diagram = m.create('bpmndi:BPMNDiagram', {
    id: `${processId}_diagram`,
    plane: m.create('bpmndi:BPMNPlane', { id: `${processId}_plane`, bpmnElement: process, planeElement: planeElements }),
  });
  const definitions = m.create('bpmn:Definitions', {
    id: `Definitions_${d.id.replace(/-/g, '')}`,
    targetNamespace: 'urn:tessera:workflow',
    exporter: 'Tessera',
    exporterVersion: '1',
    rootElements: [process],
    diagrams: [diagram],
  });
  return (await m.toXML(definitions, { format: true })).xml;
}

// ---------------------------------------------------------------- import

const ZNodeConfig = z.object({ id: z.string().optional(), type: z.string().optional(), config: z.unknown().optional() });
const ZEdgeConfig = z.object({ id: z.string().optional(), priority: z.number().optional(), isDefault: z.boolean().optional() });
const ZDefinitionConfig = z.object({
  pageId: z.string().max(64).nullish(),
  pageCode: z.string().max(40).nullish(),
  condition: z.string().transform(replaceIllFormedText).nullish(),
  description: z.string().transform(replaceIllFormedText).nullish(),
});

export interface ImportedBpmn {
  name: string;
  description: string | null;
  condition: string | null;
  pageId: string | null;
  pageCode: string | null;
  graph: TWorkflowGraph;
}

const asArray = (v: unknown): ModdleElement[] => (Array.isArray(v) ? (v as ModdleElement[]) : []);
/** A string property, with NUL and lone surrogates (which XML character references can smuggle in) replaced. */
const str = (v: unknown): string | undefined => (typeof v === 'string' ? replaceIllFormedText(v) : undefined);

/** The JSON of an element's `tessera:config` of the kind, or undefined (absent or not JSON). */
function tesseraConfig(element: ModdleElement, kind: string): unknown {
  const ext = element.extensionElements as ModdleElement | undefined;
  for (const value of asArray(ext?.values)) {
    if (value.$type !== 'tessera:Config' || value.kind !== kind || typeof value.body !== 'string') continue;
    try {
      return JSON.parse(value.body);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const BPMN_NODE_TYPES: Record<string, TWorkflowNodeType | 'gateway'> = {
  'bpmn:StartEvent': 'start',
  'bpmn:EndEvent': 'end',
  'bpmn:UserTask': 'approval',
  'bpmn:Task': 'approval',
  'bpmn:ManualTask': 'approval',
  'bpmn:SendTask': 'cc',
  'bpmn:ScriptTask': 'automatic',
  'bpmn:ServiceTask': 'automatic',
  'bpmn:BusinessRuleTask': 'automatic',
  'bpmn:ExclusiveGateway': 'exclusive',
  'bpmn:ParallelGateway': 'gateway',
};
/** BPMN elements that carry no flow meaning of their own (annotations, groups, data). */
const IGNORED = new Set(['bpmn:TextAnnotation', 'bpmn:Association', 'bpmn:Group', 'bpmn:DataObject', 'bpmn:DataObjectReference', 'bpmn:DataStoreReference']);

/** A Tessera id from a BPMN id: letters, digits, `-` and `_`, at most 64, unique. */
function idFrom(raw: string | undefined, fallback: string, used: Set<string>): string {
  let id = (raw ?? '').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || fallback;
  for (let i = 2; used.has(id); i++) id = `${id.slice(0, 58)}_${i}`;
  used.add(id);
  return id;
}

/** Reads BPMN XML into a Tessera definition; a file that is not BPMN or does not fit a flow is a 400 naming why. */
export async function bpmnToWorkflow(ctx: ServiceContext, xml: string): Promise<ImportedBpmn> {
  let root: ModdleElement;
  try {
    root = (await moddle().fromXML(xml)).rootElement;
  } catch (err) {
    throw workflowInvalid(ctx, 'bpmn.unreadable', ['xml'], { reason: String((err as Error)?.message ?? err).slice(0, 200) });
  }
  const process = asArray(root?.rootElements).find((e) => e.$type === 'bpmn:Process');
  if (!process) throw workflowInvalid(ctx, 'bpmn.noProcess', ['xml']);
  const bad = (reason: string) => workflowInvalid(ctx, 'bpmn.badGraph', ['xml'], { reason });

  const flowElements = asArray(process.flowElements).filter((e) => !IGNORED.has(e.$type));
  const bpmnNodes = flowElements.filter((e) => e.$type !== 'bpmn:SequenceFlow');
  const bpmnFlows = flowElements.filter((e) => e.$type === 'bpmn:SequenceFlow');
  if (bpmnNodes.length > WORKFLOW_LIMITS.nodes || bpmnFlows.length > WORKFLOW_LIMITS.edges) {
    throw workflowInvalid(ctx, 'bpmn.tooLarge', ['xml'], { nodes: WORKFLOW_LIMITS.nodes, edges: WORKFLOW_LIMITS.edges });
  }

  // Positions from the diagram, when there is one.
  const bounds = new Map<ModdleElement, { x: number; y: number }>();
  for (const diagram of asArray(root.diagrams)) {
    const plane = diagram.plane as ModdleElement | undefined;
    for (const shape of asArray(plane?.planeElement)) {
      const b = shape.bounds as ModdleElement | undefined;
      const element = shape.bpmnElement as ModdleElement | undefined;
      if (b && element && Number.isFinite(Number(b.x)) && Number.isFinite(Number(b.y))) bounds.set(element, { x: Number(b.x), y: Number(b.y) });
    }
  }
  const clamp = (v: number) => Math.max(-1_000_000, Math.min(1_000_000, Math.round(v)));

  const usedIds = new Set<string>();
  const idOf = new Map<ModdleElement, string>();
  const nodes: TWorkflowNode[] = [];
  for (const [index, element] of bpmnNodes.entries()) {
    let type = BPMN_NODE_TYPES[element.$type];
    if (!type) throw bad(element.$type.replace(/^bpmn:/, ''));
    const saved = ZNodeConfig.safeParse(tesseraConfig(element, 'node'));
    const savedNode = saved.success ? saved.data : undefined;
    if (type === 'gateway') {
      const outgoing = bpmnFlows.filter((f) => f.sourceRef === element).length;
      type = savedNode?.type === 'join' || savedNode?.type === 'parallel' ? savedNode.type : outgoing > 1 ? 'parallel' : 'join';
    }
    const id = idFrom(savedNode?.id ?? str(element.id), `node${index + 1}`, usedIds);
    idOf.set(element, id);
    const at = bounds.get(element) ?? { x: 0, y: index * 120 };
    const name = (str(element.name) ?? '').slice(0, WORKFLOW_LIMITS.name);
    let node: TWorkflowNode = newWorkflowNode(type, id, { x: clamp(at.x), y: clamp(at.y) }, name);
    if (savedNode?.type === type && savedNode.config !== undefined) {
      // Over the type's defaults, so a hand-edited file may leave settings out.
      const savedConfig = typeof savedNode.config === 'object' && savedNode.config !== null && !Array.isArray(savedNode.config) ? savedNode.config : {};
      const restored = ZWorkflowNode.safeParse({ ...node, config: { ...node.config, ...savedConfig } });
      if (!restored.success) throw bad(`${id}: ${restored.error.issues[0]?.path.join('.')} ${restored.error.issues[0]?.message}`.slice(0, 200));
      node = restored.data;
    } else if (node.type === 'approval') {
      const loop = element.loopCharacteristics as ModdleElement | undefined;
      if (loop?.$type === 'bpmn:MultiInstanceLoopCharacteristics') node.config.mode = loop.isSequential ? 'sequential' : 'all';
    }
    nodes.push(node);
  }

  const edges: TWorkflowEdge[] = [];
  for (const [index, flow] of bpmnFlows.entries()) {
    const source = idOf.get(flow.sourceRef as ModdleElement);
    const target = idOf.get(flow.targetRef as ModdleElement);
    if (!source || !target) throw bad(`${str(flow.id) ?? 'sequenceFlow'}`);
    const saved = ZEdgeConfig.safeParse(tesseraConfig(flow, 'edge'));
    const id = idFrom(saved.success ? (saved.data.id ?? str(flow.id)) : str(flow.id), `flow${index + 1}`, usedIds);
    const condition = str((flow.conditionExpression as ModdleElement | undefined)?.body)?.trim();
    const isDefault = (flow.sourceRef as ModdleElement).default === flow || (saved.success && saved.data.isDefault === true);
    const edge = ZWorkflowEdge.safeParse({
      id,
      source,
      target,
      ...(str(flow.name) ? { name: str(flow.name)!.slice(0, WORKFLOW_LIMITS.name) } : {}),
      ...(condition ? { condition } : {}),
      ...(isDefault ? { isDefault: true } : {}),
      ...(saved.success && saved.data.priority !== undefined ? { priority: saved.data.priority } : {}),
    });
    if (!edge.success) throw bad(`${id}: ${edge.error.issues[0]?.path.join('.')} ${edge.error.issues[0]?.message}`.slice(0, 200));
    edges.push(edge.data);
  }

  const graph = ZWorkflowGraph.safeParse({ nodes, edges });
  if (!graph.success) throw bad(`${graph.error.issues[0]?.path.join('.')} ${graph.error.issues[0]?.message}`.slice(0, 200));
  const saved = ZDefinitionConfig.safeParse(tesseraConfig(process, 'definition'));
  const documentation = str(asArray(process.documentation)[0]?.text);
  const definition = saved.success ? saved.data : {};
  return {
    name: (str(process.name)?.trim() || str(process.id) || 'BPMN').slice(0, WORKFLOW_LIMITS.name),
    description: (definition.description ?? documentation ?? null)?.slice(0, WORKFLOW_LIMITS.description) ?? null,
    condition: definition.condition?.slice(0, WORKFLOW_LIMITS.formula) ?? null,
    pageId: definition.pageId ?? null,
    pageCode: definition.pageCode ?? null,
    graph: graph.data,
  };
}
