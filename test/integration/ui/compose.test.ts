import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, startDemoUi, type RunningUi } from '../../support/atelier-ui.ts';

const TEMPLATE = 'a {red|blue|green|gold|white} {fox|owl|cat|deer|hare}';
let ui: RunningUi;
let browser: Browser;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ ui, browser, stop } = await startDemoUi('compose'));
}, 120_000);

afterAll(async () => {
  await stop?.();
});

/** Fills in Compose (the screen shown): 25 prompts from a template × 2 seeds = 50 jobs on flux-schnell. */
async function compose(page: Page, name: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Prompts or templates' }).fill(TEMPLATE);
  // the draft is kept between windows: what an earlier test chose is still chosen
  const models = page.getByRole('group', { name: 'Models' }).getByRole('checkbox');
  await expect.poll(() => models.count()).toBeGreaterThan(0);
  for (const box of await models.all()) if (await box.isChecked()) await box.uncheck();
  await page.getByRole('checkbox', { name: 'flux-schnell' }).check();
  await page.getByRole('textbox', { name: /^Images each/ }).fill('');
  await page.getByRole('textbox', { name: 'Sizes' }).fill('256x256');
  await page.getByRole('textbox', { name: /^Seeds/ }).fill('1, 2');
  await page.getByRole('textbox', { name: 'Batch name' }).fill(name);
  await expect.poll(() => page.getByLabel('Job count').textContent()).toBe('50 jobs · 50 images');
  await expect.poll(() => page.getByRole('button', { name: /^Run Ctrl/ }).isEnabled()).toBe(true);
}

async function settleToasts(page: Page): Promise<void> {
  await page
    .locator('[data-sonner-toast]')
    .evaluateAll((els) =>
      Promise.all(
        els.flatMap((el) =>
          (el as unknown as { getAnimations(): Array<{ finished: Promise<unknown> }> })
            .getAnimations()
            .map((a) => a.finished),
        ),
      ),
    );
}

describe('Compose in atelier ui --demo', () => {
  it('composes 50 prompts from a template and a matrix, runs them, and watches them finish', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(await ui.newAddress());
    const sidebar = page.getByRole('navigation', { name: 'Atelier' });
    await sidebar.getByRole('link', { name: 'Queue' }).click();
    await sidebar.getByRole('link', { name: 'Compose' }).click();
    await compose(page, 'fifty animals');

    const preview = page.getByRole('list', { name: 'Expanded jobs' });
    expect(await preview.getByRole('listitem').first().textContent()).toContain('a red fox');
    const total = page.getByLabel('Estimated total');
    expect(await total.textContent()).toContain('15,000 quota units'); // 50 × 300, the list price
    expect(await page.locator('#run-blockers').textContent()).toBe('');

    await page.getByRole('textbox', { name: 'Prompts or templates' }).press('Control+Enter');
    await expect
      .poll(() => page.getByText('Batch “fifty animals” queued: 50 jobs').isVisible())
      .toBe(true);
    // the composer keeps its content for the next run
    expect(await page.getByRole('textbox', { name: 'Prompts or templates' }).inputValue()).toBe(
      TEMPLATE,
    );

    await page.getByRole('button', { name: 'Open queue' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Queue', level: 1 }).isVisible())
      .toBe(true);
    const row = page.getByRole('listitem', { name: 'fifty animals' });
    await expect.poll(() => row.textContent(), { timeout: 60_000 }).toContain('Finished');
    expect(await row.textContent()).toContain('50 / 50');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('refuses what the model would, with the reason, before anything is queued', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(await ui.newAddress());
    await expect
      .poll(() => page.getByRole('checkbox', { name: 'dall-e-3' }).isVisible())
      .toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'compose-empty-light.png') });
    await page.getByRole('textbox', { name: 'Prompts or templates' }).fill('a {red|blue fox');
    await expect
      .poll(() => page.getByRole('list', { name: 'Template errors' }).textContent())
      .toContain('Line 1, column 3');
    await page.getByRole('textbox', { name: 'Prompts or templates' }).fill('a fox');
    await page.getByRole('checkbox', { name: 'dall-e-3' }).check();
    const dalle = page.getByRole('group', { name: 'dall-e-3', exact: true });
    // one image a request is all it makes: nothing to choose, so nothing to get wrong
    const n = dalle.getByRole('textbox', { name: /^Images each/ });
    expect([await n.inputValue(), await n.getAttribute('readonly')]).toEqual(['1', '']);
    // a size set for dall-e-3 itself (its group) that it does not make: refused with its reason
    await dalle.getByRole('textbox', { name: 'Sizes' }).fill('512x512');
    await expect
      .poll(() => page.getByRole('list', { name: 'Problems' }).textContent())
      .toContain('Model dall-e-3 does not offer size 512x512. Choose one of: 1024x1024,');
    expect(await page.getByRole('button', { name: /^Run Ctrl/ }).isDisabled()).toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'compose-refused-light.png') });
    await context.close();
  }, 60_000);

  it('looks right filled in, light and dark, wide and at 760 px', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 760]) {
        const context = await browser.newContext({
          colorScheme,
          viewport: { width, height: 1000 },
        });
        const page = await context.newPage();
        await page.goto(await ui.newAddress());
        await compose(page, `screenshot ${colorScheme} ${width}`);
        await page
          .getByRole('textbox', { name: 'Prompts or templates' })
          .fill(
            `${TEMPLATE}\na very long prompt about a harbour at dawn, ${'with fishing boats, gulls and mist over the water, '.repeat(6)}in {oil|watercolor}`,
          );
        await expect
          .poll(() => page.getByLabel('Job count').textContent())
          .toBe('54 jobs · 54 images');
        await expect
          .poll(() => page.getByRole('button', { name: /^Run Ctrl/ }).isEnabled())
          .toBe(true);
        await settleToasts(page);
        await page.screenshot({
          path: path.join(SCREENSHOTS, `compose-${colorScheme}-${width}.png`),
          fullPage: true,
        });
        // the end of the preview: long prompts clamped to two lines
        const preview = page.getByRole('list', { name: 'Expanded jobs' });
        await preview.evaluate((el) => (el.scrollTop = el.scrollHeight));
        await page.getByRole('region', { name: 'Preview' }).screenshot({
          path: path.join(SCREENSHOTS, `compose-${colorScheme}-${width}-preview.png`),
        });
        await context.close();
      }
    }
  }, 120_000);
});
