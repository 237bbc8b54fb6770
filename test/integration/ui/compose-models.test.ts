import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, startDemoUi, type RunningUi } from '../../support/atelier-ui.ts';
import { eventually } from '../../support/page-helpers.ts';

/** What the tests read of page elements (the Node project has no DOM types). */
interface Boxed {
  getBoundingClientRect(): { top: number; bottom: number; height: number };
  parentElement: Boxed | null;
  scrollHeight: number;
  clientHeight: number;
  scrollTop: number;
  closest(selector: string): Boxed | null;
}

let ui: RunningUi;
let browser: Browser;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ ui, browser, stop } = await startDemoUi('compose-models'));
}, 120_000);

afterAll(async () => {
  await stop?.();
});

const group = (page: Page, model: string) => page.getByRole('group', { name: model, exact: true });

/** gpt-image-1 and dall-e-3, each with its own sizes and quality, gpt-image-1 with n 2. */
async function composeTwoModels(page: Page): Promise<void> {
  await page.getByRole('textbox', { name: 'Prompts or templates' }).fill('a lighthouse at dusk');
  const models = page.getByRole('group', { name: 'Models' }).getByRole('checkbox');
  await eventually(() => models.count()).toBeGreaterThan(0);
  for (const box of await models.all()) if (await box.isChecked()) await box.uncheck();
  await page.getByRole('checkbox', { name: 'gpt-image-1' }).check();
  await page.getByRole('checkbox', { name: 'dall-e-3' }).check();
  const gpt = group(page, 'gpt-image-1');
  const dalle = group(page, 'dall-e-3');
  await gpt.getByRole('textbox', { name: 'Sizes' }).fill('');
  await dalle.getByRole('textbox', { name: 'Sizes' }).fill('');
  // each group offers its own model's sizes only
  expect(
    await gpt
      .getByRole('group', { name: 'Sizes of gpt-image-1' })
      .getByRole('button')
      .allTextContents(),
  ).not.toContain('1792x1024');
  expect(
    await dalle
      .getByRole('group', { name: 'Sizes of dall-e-3' })
      .getByRole('button')
      .allTextContents(),
  ).not.toContain('1536x1024');
  await gpt.getByRole('button', { name: '1024x1024' }).click();
  await gpt.getByRole('button', { name: '1536x1024' }).click();
  await gpt.getByRole('textbox', { name: /^Images each/ }).fill('2');
  await gpt.getByRole('combobox', { name: 'Quality' }).selectOption('high');
  await dalle.getByRole('button', { name: '1024x1024' }).click();
  await dalle.getByRole('button', { name: '1792x1024' }).click();
  await dalle.getByRole('combobox', { name: 'Quality' }).selectOption('hd');
}

describe('Compose across models in atelier ui --demo', () => {
  it('gives each model its own sizes, n and quality, says what each gets, and runs them', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(await ui.newAddress());
    await composeTwoModels(page);

    await eventually(() => page.getByLabel('Job count').textContent()).toBe('4 jobs · 6 images');
    const preview = page.getByRole('list', { name: 'Expanded jobs' }).getByRole('listitem');
    expect(await preview.allTextContents()).toEqual([
      expect.stringContaining('gpt-image-1 · 1024x1024 · n 2 · high'),
      expect.stringContaining('gpt-image-1 · 1536x1024 · n 2 · high'),
      expect.stringContaining('dall-e-3 · 1024x1024 · hd'),
      expect.stringContaining('dall-e-3 · 1792x1024 · hd'),
    ]);
    const lines = page.getByRole('list', { name: 'Estimate per model' });
    expect(await lines.textContent()).toContain(
      'dall-e-3 (1024x1024, 1792x1024 · n 1 · hd): 2 images',
    );
    expect(await lines.textContent()).toContain('1024x1024, 1792x1024 · n 1 · hd');
    expect(await lines.textContent()).toContain('1024x1024, 1536x1024 · n 2 · high');
    // the service's check agrees: nothing refused, Run is open
    await eventually(() => page.getByRole('button', { name: /^Run Ctrl/ }).isEnabled()).toBe(true);
    expect(await page.getByRole('list', { name: 'Problems' }).count()).toBe(0);

    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({
        path: path.join(SCREENSHOTS, `compose-two-models-${colorScheme}.png`),
        fullPage: true,
      });
    }

    await page.getByRole('textbox', { name: 'Batch name' }).fill('two models');
    await page.getByRole('button', { name: /^Run Ctrl/ }).click();
    await eventually(() => page.getByText('Batch “two models” queued: 4 jobs').isVisible()).toBe(
      true,
    );
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('keeps the problem list above the sticky Run bar in a narrow window', async () => {
    const context = await browser.newContext({ viewport: { width: 760, height: 900 } });
    const page = await context.newPage();
    await page.goto(await ui.newAddress());
    await composeTwoModels(page);
    // a size dall-e-3 does not make, set for it: refused in the service's words
    await group(page, 'dall-e-3')
      .getByRole('textbox', { name: 'Sizes' })
      .fill('1024x1024, 4096x4096');
    const list = page.getByRole('list', { name: 'Problems' });
    await eventually(() => list.textContent()).toContain(
      'Model dall-e-3 does not offer size 4096x4096.',
    );
    await page.screenshot({
      path: path.join(SCREENSHOTS, 'compose-two-models-light-760.png'),
      fullPage: true,
    });
    // wherever the window is scrolled, the whole list is in view and not under the Run bar
    const run = page.getByRole('region', { name: 'Run' });
    for (const at of ['top', 'middle', 'bottom'] as const) {
      const seen = await list.evaluate((el, where) => {
        const node = el as unknown as Boxed;
        let scroller = node.parentElement;
        while (scroller && scroller.scrollHeight <= scroller.clientHeight + 1) {
          scroller = scroller.parentElement;
        }
        const room = scroller ? scroller.scrollHeight - scroller.clientHeight : 0;
        if (scroller)
          scroller.scrollTop = where === 'top' ? 0 : where === 'middle' ? room / 2 : room;
        const { top, bottom } = node.getBoundingClientRect();
        const view = (globalThis as unknown as { innerHeight: number }).innerHeight;
        return { top, bottom, view };
      }, at);
      expect(seen.top, at).toBeGreaterThanOrEqual(0);
      expect(seen.bottom, at).toBeLessThanOrEqual(seen.view);
      // inside the bar: nothing of it drawn over
      const bar = (await run.boundingBox())!;
      expect(seen.top, at).toBeGreaterThanOrEqual(Math.floor(bar.y));
      expect(await run.getByRole('button', { name: /^Run Ctrl/ }).isDisabled()).toBe(true);
    }
    await page.screenshot({ path: path.join(SCREENSHOTS, 'compose-problems-above-run-760.png') });
    await context.close();
  }, 120_000);
});
