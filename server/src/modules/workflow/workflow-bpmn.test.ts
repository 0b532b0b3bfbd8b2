import type { TWorkflowGraph, TWorkflowNode } from '@tessera/core/contracts/workflow';
import { newWorkflowEdge as edge, newWorkflowNode as node } from '@tessera/core/workflow/defaults';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, masterDetail, pagesApi } from '../../../test/page-helpers.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// BPMN 2.0 XML export and import (bpmn-moddle): Tessera → BPMN → Tessera keeps the definition;
// a foreign modeler's file maps by element type; what is not BPMN, or not a flow, is a 400.

let t: TestApp;
let admin: string;
let pageId: string;
const URL = '/api/app/workflow-definition';
const USER = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const pages = pagesApi(t, () => admin);
  pageId = (await pages.create('Expense', masterDetail([control('Amount', 1003), control('Status', 1001)], [control('Cost', 1003)]))).id;
  expect((await pages.publish(pageId)).statusCode).toBe(200);
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.call(admin, { method, url, ...(payload ? { payload } : {}) });

function approval(id: string, mode: 'or' | 'all' | 'vote' | 'sequential', x: number, y: number) {
  const n = node('approval', id, { x, y }, `审批 ${id}`);
  n.config.assignees = [{ kind: 'user', userIds: [USER] }, { kind: 'initiatorLeader', level: 2 }];
  n.config.mode = mode;
  if (mode === 'vote') n.config.votePassPercent = 75;
  n.config.fieldPermissions = { Amount: 'readonly', 'Lines.Cost': 'editable' };
  n.config.timeout = { afterMinutes: 120, then: 'autoApprove' };
  return n;
}

/** Every node type: start → exclusive (big: parallel block of two approvals; default: sequential) → automatic → cc → end. */
function everything(): TWorkflowGraph {
  const auto = node('automatic', 'mark', { x: 400, y: 500 }, '标记');
  auto.config.assignments = [{ controlCode: 'Status', formula: 'IF({Amount} > 1, "big", "small")' }];
  const cc = node('cc', 'tell', { x: 400, y: 600 }, '抄送');
  cc.config.recipients = [{ kind: 'initiator' }];
  const nodes: TWorkflowNode[] = [
    node('start', 'start', { x: 400, y: 0 }, '开始'),
    node('exclusive', 'x1', { x: 400, y: 100 }, '金额'),
    node('parallel', 'p1', { x: 200, y: 200 }),
    approval('a1', 'all', 100, 300),
    approval('a2', 'vote', 300, 300),
    node('join', 'j1', { x: 200, y: 400 }),
    approval('a3', 'sequential', 600, 300),
    auto,
    cc,
    node('end', 'end', { x: 400, y: 700 }, '结束'),
  ];
  return {
    nodes,
    edges: [
      edge('f1', 'start', 'x1'),
      edge('f2', 'x1', 'p1', { condition: 'SUM({Lines.Cost}) > 10000', priority: 1, name: '大额' }),
      edge('f3', 'x1', 'a3', { isDefault: true, name: '其他' }),
      edge('f4', 'p1', 'a1'),
      edge('f5', 'p1', 'a2'),
      edge('f6', 'a1', 'j1'),
      edge('f7', 'a2', 'j1'),
      edge('f8', 'j1', 'mark'),
      edge('f9', 'a3', 'mark'),
      edge('f10', 'mark', 'tell'),
      edge('f11', 'tell', 'end'),
    ],
  };
}

describe('BPMN 2.0 export and import', () => {
  it('exports BPMN with user tasks, multi-instance countersign, gateways, conditions and a diagram, and imports it back unchanged', async () => {
    const created = await call('POST', URL, { name: '报销审批', description: '说明', pageId, condition: '{Amount} > 0', graph: everything() });
    expect(created.statusCode, created.body).toBe(200);
    const d = created.json();
    const publish = await call('POST', `${URL}/${d.id}/publish`, {});
    expect(publish.statusCode, publish.body).toBe(200);

    const res = await call('GET', `${URL}/${d.id}/bpmn?source=published`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/xml/);
    expect(res.headers['content-disposition']).toContain('.bpmn');
    const xml = res.body;
    expect(xml).toContain('<bpmn:process id="Process_');
    expect(xml).toMatch(/<bpmn:startEvent id="start" name="开始">/);
    expect(xml).toMatch(/<bpmn:userTask id="a1"/);
    expect(xml).toMatch(/<bpmn:multiInstanceLoopCharacteristics isSequential="true"/);
    expect(xml).toMatch(/nrOfApprovedInstances \/ nrOfInstances &gt;= 0\.75/);
    expect(xml).toMatch(/<bpmn:exclusiveGateway id="x1" name="金额" gatewayDirection="Diverging" default="f3">/);
    expect(xml).toMatch(/<bpmn:parallelGateway id="j1" name="Join" gatewayDirection="Converging">/);
    expect(xml).toMatch(/<bpmn:conditionExpression xsi:type="bpmn:tFormalExpression" language="tessera-formula">SUM\(\{Lines.Cost\}\) &gt; 10000<\/bpmn:conditionExpression>/);
    expect(xml).toMatch(/<bpmn:scriptTask id="mark" name="标记" scriptFormat="tessera-formula">/);
    expect(xml).toMatch(/<bpmn:sendTask id="tell"/);
    expect(xml).toContain('<bpmndi:BPMNShape id="a1_di" bpmnElement="a1">');
    expect(xml).toContain('<tessera:config kind="node">');

    const back = await call('POST', `${URL}/import-bpmn`, { xml });
    expect(back.statusCode, back.body).toBe(200);
    const imported = back.json();
    expect(imported).toMatchObject({ name: '报销审批', description: '说明', condition: '{Amount} > 0', pageId, status: 'draft', enabled: false, problems: [] });
    expect(imported.graph).toEqual(everything());
    // The imported draft publishes as it is.
    expect((await call('POST', `${URL}/${imported.id}/publish`, {})).statusCode).toBe(200);
  });

  it('imports a foreign modeler\'s BPMN by element type, with positions from its diagram', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="Defs" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="Leave" name="Leave request" isExecutable="true">
    <bpmn:startEvent id="Start_1" />
    <bpmn:userTask id="Task.Manager" name="Manager" camunda:assignee="\${manager}">
      <bpmn:multiInstanceLoopCharacteristics isSequential="true" />
    </bpmn:userTask>
    <bpmn:exclusiveGateway id="Gw" default="Flow_default" />
    <bpmn:userTask id="Task_HR" name="HR" />
    <bpmn:endEvent id="End_1" />
    <bpmn:sequenceFlow id="F1" sourceRef="Start_1" targetRef="Task.Manager" />
    <bpmn:sequenceFlow id="F2" sourceRef="Task.Manager" targetRef="Gw" />
    <bpmn:sequenceFlow id="F3" sourceRef="Gw" targetRef="Task_HR"><bpmn:conditionExpression>{Amount} &gt; 3</bpmn:conditionExpression></bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="Flow_default" sourceRef="Gw" targetRef="End_1" />
    <bpmn:sequenceFlow id="F5" sourceRef="Task_HR" targetRef="End_1" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="D"><bpmndi:BPMNPlane id="P" bpmnElement="Leave">
    <bpmndi:BPMNShape id="S1" bpmnElement="Task_HR"><dc:Bounds x="320.4" y="80" width="100" height="80" /></bpmndi:BPMNShape>
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</bpmn:definitions>`;
    const res = await call('POST', `${URL}/import-bpmn`, { xml, pageId });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json();
    expect(d.name).toBe('Leave request');
    expect(d.graph.nodes.map((n: TWorkflowNode) => `${n.id}:${n.type}`)).toEqual(['Start_1:start', 'Task_Manager:approval', 'Gw:exclusive', 'Task_HR:approval', 'End_1:end']);
    expect(d.graph.nodes[1].config.mode).toBe('sequential');
    expect(d.graph.nodes[3].position).toEqual({ x: 320, y: 80 });
    expect(d.graph.edges.find((e: { id: string }) => e.id === 'Flow_default').isDefault).toBe(true);
    expect(d.graph.edges.find((e: { id: string }) => e.id === 'F3').condition).toBe('{Amount} > 3');
    // Approvers cannot come from a foreign file: publishing would ask for them.
    expect(d.problems.map((p: { code: string }) => p.code)).toEqual(['approvalNoAssignees', 'approvalNoAssignees']);
    // Without a page in the file or the request there is nothing to bind to.
    const noPage = await call('POST', `${URL}/import-bpmn`, { xml });
    expect(noPage.statusCode).toBe(400);
    expect(noPage.json().error.validationErrors[0].members).toEqual(['pageId']);
  });

  it.each<[string, string, RegExp]>([
    ['not XML', 'hello', /BPMN/],
    ['XML that is not BPMN', '<html><body/></html>', /BPMN/],
    ['BPMN without a process', '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d"/>', /process|流程/],
    [
      'a sub-process',
      '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d"><bpmn:process id="p"><bpmn:subProcess id="s"/></bpmn:process></bpmn:definitions>',
      /SubProcess/,
    ],
    [
      'a flow to nowhere',
      '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d"><bpmn:process id="p"><bpmn:startEvent id="s"/><bpmn:sequenceFlow id="f" sourceRef="s" targetRef="zz"/></bpmn:process></bpmn:definitions>',
      /f/,
    ],
    [
      'an entity expansion bomb',
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d"><bpmn:process id="p" name="&lol2;"/></bpmn:definitions>',
      /.*/,
    ],
    [
      'a broken tessera:config',
      '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:tessera="urn:tessera:bpmn:1" id="d"><bpmn:process id="p"><bpmn:userTask id="u"><bpmn:extensionElements><tessera:config kind="node">{"type":"approval","config":{"mode":"nonsense"}}</tessera:config></bpmn:extensionElements></bpmn:userTask></bpmn:process></bpmn:definitions>',
      /mode/,
    ],
  ])('refuses %s with a 400, never a 500', async (_, xml, message) => {
    const res = await call('POST', `${URL}/import-bpmn`, { xml, pageId });
    if (res.statusCode === 200) {
      // The entity bomb parses without expanding anything: the name stays short.
      expect(res.json().name.length).toBeLessThanOrEqual(100);
      return;
    }
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.validationErrors[0].members).toEqual(['xml']);
    expect(res.json().error.message).toMatch(message);
  });

  it('refuses a process larger than a flow may be', async () => {
    const tasks = Array.from({ length: 301 }, (_, i) => `<bpmn:task id="t${i}"/>`).join('');
    const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d"><bpmn:process id="p">${tasks}</bpmn:process></bpmn:definitions>`;
    const res = await call('POST', `${URL}/import-bpmn`, { xml, pageId });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/300/);
  });

  it('keeps names with character references that are not text a database can hold out of the database', async () => {
    const xml = '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d"><bpmn:process id="p" name="a&#0;b&#xD800;c"><bpmn:startEvent id="s" name="x&#0;"/><bpmn:endEvent id="e"/><bpmn:sequenceFlow id="f" sourceRef="s" targetRef="e"/></bpmn:process></bpmn:definitions>';
    const res = await call('POST', `${URL}/import-bpmn`, { xml, pageId });
    expect([200, 400]).toContain(res.statusCode);
    if (res.statusCode === 200) expect(res.json().name).not.toMatch(/\u0000/);
  });
});
