/**
 * A business page for the web benches: a published "bench orders" page (one master view with
 * text, integer, money, date and switch columns) on a business menu, with `rows` records added
 * through the runtime API — what a designer and staff would have made (see e2e/business-runtime).
 */
import { randomUUID } from 'node:crypto';
import { ADMIN_PASSWORD } from '../../e2e/product.ts';

export interface BenchBusinessPage {
  menuId: string;
  pageId: string;
  /** The page's route in the shell (hash path). */
  route: string;
  rows: number;
}

export async function createBenchBusinessPage(url: string, rows = 30): Promise<BenchBusinessPage> {
  const login = await fetch(`${url}/api/Auth/Login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const control = (code: string, title: string, controlType: number, extra: object = {}) => ({
    id: randomUUID(),
    code,
    title,
    controlType,
    isDisplayed: true,
    isEdit: true,
    ...extra,
  });
  const master = {
    id: randomUUID(),
    code: 'BenchOrder',
    title: '订单',
    viewType: 1,
    dataControls: [
      control('OrderTitle', '标题', 1001),
      control('Customer', '客户', 1001),
      control('Quantity', '数量', 1002),
      control('Amount', '金额', 1003, { extraProperties: { accuracy: 2 } }),
      control('OrderDate', '日期', 1004, { extraProperties: { dateType: 2 } }),
      control('Urgent', '加急', 1005),
      control('Note', '备注', 1001),
    ],
    viewButtons: [],
    viewControls: [],
  };
  const page = await call<{ id: string }>('POST', '/app/page-definition', {
    code: 'BenchOrders',
    name: { 'zh-CN': '基准订单', 'en-US': 'Bench orders' },
    definition: { viewControls: [master], pageButtons: [], dataLinkages: [] },
  });
  await call('POST', `/app/page-definition/${page.id}/publish`, {});
  const dataList = Array.from({ length: rows }, (_, i) => ({
    OrderTitle: `订单 ${i + 1}`,
    Customer: ['North Ltd', 'South Inc', 'East Co', 'West GmbH'][i % 4],
    Quantity: (i % 17) + 1,
    Amount: ((i * 37.5) % 1000).toFixed(2),
    OrderDate: `2026-11-${String((i % 28) + 1).padStart(2, '0')}`,
    Urgent: i % 3 === 0,
    Note: `备注 ${i + 1}`,
  }));
  // One master record per save (the runtime's rule).
  for (const row of dataList) await call('POST', '/app/business-data/save-page', { pageId: page.id, viewDataList: [{ viewId: master.id, dataList: [row] }] });
  const menu = await call<{ id: string }>('POST', '/app/business-menu', {
    title: { 'zh-CN': '基准订单', 'en-US': 'Bench orders' },
    pageDefinitionId: page.id,
    isJump: true,
  });
  return { menuId: menu.id, pageId: page.id, route: `/menu/${menu.id}/params/${menu.id}`, rows };
}
