import type { Locator, Page } from 'playwright-core';

// What the journeys through the page designer share: a pointer drag as a person does it, the
// palette, the properties panel, naming the selected element.

/**
 * A pointer drag the way a person does it (dnd-kit starts after 5 px of movement). `where`: the
 * target's centre or near its left / right edge; `beforeDrop` runs while the pointer is still down.
 */
export async function drag(page: Page, from: Locator, to: Locator, where: 'center' | 'left' | 'right' = 'center', beforeDrop?: () => Promise<void>) {
  await from.scrollIntoViewIfNeeded();
  const a = (await from.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 12, a.y + a.height / 2 + 6, { steps: 3 });
  await to.scrollIntoViewIfNeeded();
  const b = (await to.boundingBox())!;
  const x = where === 'left' ? b.x + 6 : where === 'right' ? b.x + b.width - 6 : b.x + b.width / 2;
  const y = b.y + b.height / 2;
  await page.mouse.move(x, y, { steps: 8 });
  await page.mouse.move(x + 1, y, { steps: 2 });
  await beforeDrop?.();
  await page.mouse.up();
}

/** A palette entry by its exact title. */
export const palette = (page: Page, title: string) => page.locator(`[data-palette]`, { hasText: new RegExp(`^${title}$`) }).first();
export const props = (page: Page) => page.getByTestId('properties-panel');
/** A control's card on the designer's canvas, by its code. */
export const card = (page: Page, code: string) => page.locator(`.dz-card[data-control-code="${code}"]`);
/** Opens a cascader and picks each step of the path in turn. */
export async function cascade(page: Page, field: Locator, ...path: string[]) {
  await field.click();
  for (const step of path) await page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item', { hasText: step }).first().click();
}

/** Sets code and Chinese title of the selected control / view in the properties panel. */
export async function name(page: Page, code: string, title: string) {
  const panel = props(page);
  await panel.locator('#prop-code').fill(code);
  await panel.locator('[data-property="title"]').getByLabel('语言 zh-CN').or(panel.locator('#prop-title')).first().fill(title);
}
