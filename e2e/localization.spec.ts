import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFailed } from 'vitest';
import { productPerTry } from './product-per-try.ts';
import { screenshotPath, signInAs, type Product } from './product.ts';

let product: Product;
// A retry starts from a product of its own: the first try's language pack would be there already.
const perTry = productPerTry((p) => (product = p));

/** The machine is shared: give the UI time to answer before a check fails. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

const cardTitle = (page: Page) => page.locator('.ant-card-head-title').first();

/** Picks a language in the header's language selector (the menu of an earlier pick may still be fading out). */
async function chooseLanguage(page: Page, label: string) {
  await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
  await page.getByTestId('language-selector').click();
  await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').last().getByRole('menuitem', { name: label }).click();
}

/** Picks a language until the card's title says `expected` (a click that a closing menu swallowed is made again). */
async function showIn(page: Page, label: string, expected: string) {
  await chooseLanguage(page, label);
  await poll(async () => {
    const title = (await cardTitle(page).textContent()) ?? '';
    if (!title.includes(expected)) await chooseLanguage(page, label).catch(() => undefined);
    return cardTitle(page).textContent();
  }).toContain(expected);
}

/** Types a translation for `ns:key` in the grid (the search narrows the grid to the key first). */
async function translate(page: Page, id: string, search: string, value: string) {
  await page.getByPlaceholder('搜索键或文本').fill(search);
  const cell = page.getByTestId(`translation-${id}`);
  await cell.waitFor();
  await cell.fill(value);
}

describe('language management', () => {
  it('adds a language pack, translates texts side by side, and signed-in browsers show them without a rebuild', async () => {
    await perTry.forThisTry();
    const { page: admin } = await product.newPage();
    onTestFailed(() => admin.screenshot({ path: screenshotPath('localization-failure') }).then(() => undefined));
    // A second signed-in browser, open before anything is translated.
    const { page: other } = await product.newPage();
    onTestFailed(() => other.screenshot({ path: screenshotPath('localization-other-failure') }).then(() => undefined));
    await signInAs(other, product.url);
    await other.waitForURL(/#\/dashboard\/console/);

    await signInAs(admin, product.url);
    await admin.waitForURL(/#\/dashboard\/console/);
    await admin.goto(`${product.url}/#/system/localization`);
    await poll(() => cardTitle(admin).textContent()).toContain('语言管理');
    const packs = admin.getByTestId('language-packs');
    await poll(() => packs.locator('tbody tr.ant-table-row').count()).toBe(7);

    // Add the pack.
    await admin.getByRole('button', { name: '新建语言包' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('语言代码').fill('fr-FR');
    await dialog.getByLabel('名称').fill('Français');
    await dialog.getByLabel('旗帜').fill('FR');
    await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
    await poll(() => admin.getByText('保存成功').count()).toBeGreaterThan(0);
    const row = packs.locator('tbody tr', { hasText: 'fr-FR' });
    await poll(() => row.count()).toBe(1);
    await dialog.waitFor({ state: 'hidden' });
    await admin.screenshot({ path: screenshotPath('localization-packs') });

    // Translate: everything is missing at first; the reference column shows the Chinese text.
    await row.getByRole('button', { name: '翻译' }).click();
    await admin.waitForURL(/tab=translations&culture=fr-FR/);
    await poll(() => admin.getByText(/共 \d+ 个键，未翻译 \d+ 个/).textContent()).toMatch(/共 (\d+) 个键，未翻译 \1 个/);
    const stats = await admin.getByText(/共 \d+ 个键/).textContent();
    const [, total] = stats!.match(/共 (\d+) 个键/)!;
    expect(Number(total)).toBeGreaterThan(200);

    await translate(admin, 'localization:title', '语言管理', 'Gestion des langues');
    await translate(admin, 'menu:localization', '语言管理', 'Langues');
    await admin.getByRole('button', { name: /保存 \(2\)/ }).click();
    await poll(() => admin.getByText('已保存 2 条文本').count()).toBeGreaterThan(0);
    await poll(() => admin.getByText(/共 \d+ 个键/).textContent()).toBe(`共 ${total} 个键，未翻译 ${Number(total) - 2} 个`);

    // Only missing: the translated keys leave the list.
    await admin.getByPlaceholder('搜索键或文本').fill('语言管理');
    await poll(() => admin.getByTestId('translation-localization:title').count()).toBe(1);
    await admin.getByRole('checkbox', { name: '只看未翻译' }).check();
    await poll(() => admin.getByTestId('translation-localization:title').count()).toBe(0);
    await admin.getByRole('checkbox', { name: '只看未翻译' }).uncheck();
    await admin.screenshot({ path: screenshotPath('localization-translations') });

    // Export the pack as JSON, add a text to the file, import it back.
    await admin.getByRole('tab', { name: '语言包' }).click();
    const frRow = packs.locator('tbody tr', { hasText: 'fr-FR' });
    await poll(() => frRow.getByText('2', { exact: true }).count()).toBe(1);
    const transferMenu = async (item: string) => {
      await frRow.getByRole('button', { name: '导出 JSON / 导入' }).hover();
      await admin.locator('.ant-dropdown:visible').last().getByText(item, { exact: true }).click();
    };
    const [download] = await Promise.all([admin.waitForEvent('download'), transferMenu('导出 JSON')]);
    const file = JSON.parse(await readFile((await download.path())!, 'utf8')) as { culture: string; texts: Record<string, Record<string, unknown>> };
    expect(file.culture).toBe('fr-FR');
    expect(file.texts).toEqual({ localization: { title: 'Gestion des langues' }, menu: { localization: 'Langues' } });
    file.texts.localization!.tabs = { packs: 'Packs de langue' };
    await transferMenu('导入');
    const importDialog = admin.getByRole('dialog');
    await importDialog.locator('input[type=file]').setInputFiles({ name: 'fr-FR.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
    await poll(() => importDialog.getByText('新增 1 条，更新 0 条，未变 2 条').count()).toBe(1);
    await admin.keyboard.press('Escape');
    await importDialog.waitFor({ state: 'hidden' });
    await poll(() => frRow.getByText('3', { exact: true }).count()).toBe(1);
    // The same as Excel: export, and the workbook imports back unchanged.
    const [sheet] = await Promise.all([admin.waitForEvent('download'), transferMenu('导出 Excel')]);
    expect(sheet.suggestedFilename()).toBe('language-pack-fr-FR.xlsx');
    const workbook = await readFile((await sheet.path())!);
    expect(workbook.subarray(0, 2).toString()).toBe('PK');
    await transferMenu('导入');
    await importDialog.locator('input[type=file]').setInputFiles({ name: 'fr-FR.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: workbook });
    await poll(() => importDialog.getByText('新增 0 条，更新 0 条，未变 3 条').count()).toBe(1);
    await admin.keyboard.press('Escape');
    await importDialog.waitFor({ state: 'hidden' });

    // The header's language selector offers the new pack; choosing it shows the translations
    // (what is not translated falls back to English).
    await showIn(admin, 'Français', 'Gestion des langues');
    await poll(() => admin.locator('.ant-layout-sider, .ant-drawer').getByText('Langues', { exact: true }).count()).toBeGreaterThan(0);
    await poll(() => admin.getByRole('tab', { name: 'Packs de langue' }).count()).toBe(1);
    expect(await admin.getByRole('tab', { name: 'Translations' }).count()).toBe(1);
    expect(await admin.evaluate(() => document.documentElement.lang)).toBe('fr-FR');
    await admin.screenshot({ path: screenshotPath('localization-french') });

    // After a refresh the browser stays in the chosen pack.
    await admin.reload();
    await poll(() => cardTitle(admin).textContent()).toContain('Gestion des langues');

    // The other browser, signed in before the pack existed, picks it and sees the texts.
    await other.goto(`${product.url}/#/system/localization`);
    await poll(() => cardTitle(other).textContent()).toContain('语言管理');
    await showIn(other, 'Français', 'Gestion des langues');

    // A text changed later reaches signed-in browsers: on refresh, while the page stays open (the
    // version check runs every minute and when the window regains focus), and on switching language.
    const token = (await admin.context().cookies()).find((c) => c.name === 'token')!.value;
    const texts = (await (
      await fetch(`${product.url}/api/app/localization/paged-texts?Culture=fr-FR&Key=title&ResourceName=localization`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { items: { id: string; key: string }[] };
    const id = texts.items.find((t) => t.key === 'title')!.id;
    const rename = async (value: string) => {
      const put = await fetch(`${product.url}/api/app/localization/${id}/text`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ culture: 'fr-FR', resourceName: 'localization', key: 'title', value }),
      });
      expect(put.status).toBe(200);
    };
    await rename('Langues et traductions');
    await admin.reload();
    await poll(() => cardTitle(admin).textContent()).toContain('Langues et traductions');
    await poll(async () => {
      await other.evaluate(() => window.dispatchEvent(new Event('focus')));
      return cardTitle(other).textContent();
    }).toContain('Langues et traductions');
    expect(other.url()).toContain('/system/localization');

    await showIn(other, 'English', 'Languages');
    await rename('Traductions');
    await showIn(other, 'Français', 'Traductions');
  });
});
