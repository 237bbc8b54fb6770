import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoUi, type RunningUi } from '../../support/atelier-ui.ts';
import { call, eventually, screenshots } from '../../support/page-helpers.ts';

/** What the tests read of page elements (the Node project has no DOM types). */
interface Boxed {
  getBoundingClientRect(): { width: number; height: number };
}

const grid = (page: Page) => page.getByRole('grid', { name: 'Images' });
const status = (page: Page) => page.getByRole('status').filter({ hasText: /image|Searching/ });
const optionsOf = (page: Page, name: string) =>
  page
    .getByRole('combobox', { name })
    .locator('option')
    .evaluateAll((all) => all.map((o) => o.textContent ?? ''));

/** Four landscapes (768×512) and two squares (256×256) on flux-schnell, two squares on dall-e-2. */
const ROWS = [
  ...['a harbour at dawn', 'a wheat field', 'a desert road', 'a glacier'].map((prompt) => ({
    prompt,
    model: 'flux-schnell',
    size: '768x512',
  })),
  ...['a red fox', 'an owl'].map((prompt) => ({ prompt, model: 'flux-schnell', size: '256x256' })),
  ...['a teapot', 'a lantern'].map((prompt) => ({ prompt, model: 'dall-e-2', size: '256x256' })),
];

describe('the gallery shows what the library holds', () => {
  let ui: RunningUi;
  let browser: Browser;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ ui, browser, stop } = await startDemoUi('gallery-library'));
  }, 120_000);
  afterAll(async () => {
    await stop?.();
  });

  it('filters by the sizes and models made, shows whole pictures and captions, and makes more', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(await ui.newAddress('/queue'));
    await page.getByRole('heading', { name: 'Queue', level: 1 }).waitFor();

    // the ? key (Shift and the slash key in Chromium) opens the shortcuts
    await page.keyboard.press('Shift+?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.waitFor();
    await page.keyboard.press('Escape');
    await eventually(() => sheet.count()).toBe(0);

    await call(page, 'batches', 'create', {
      name: 'two models',
      source: { kind: 'rows', rows: ROWS },
    });
    await call(page, 'batches', 'create', {
      name: 'other batch',
      source: {
        kind: 'rows',
        rows: [{ prompt: 'a kite', model: 'flux-schnell', size: '256x256' }],
      },
    });
    const card = page.getByRole('button', { name: 'Show the images of two models' });
    await eventually(() => card.isVisible()).toBe(true);
    await eventually(() =>
      page.getByRole('listitem', { name: 'two models' }).textContent(),
    ).toContain('8 images');
    // the other batch's image too: the facets count the whole library as the gallery opens
    await eventually(() =>
      page.getByRole('listitem', { name: 'other batch' }).textContent(),
    ).toContain('1 image');
    await card.click();

    // the gallery on that batch alone
    await page.getByRole('heading', { name: 'Gallery', level: 1 }).waitFor();
    await eventually(() => status(page).textContent()).toBe('8 images');
    const batchFilter = page.getByRole('combobox', { name: 'Batch' });
    expect(await batchFilter.locator('option:checked').textContent()).toBe('two models');

    // the filters offer what the library holds, with counts; no catalogue size never used
    await eventually(() => optionsOf(page, 'Size')).toEqual([
      'All sizes',
      '256 × 256 (5)',
      '768 × 512 (4)',
    ]);
    expect(await optionsOf(page, 'Model')).toEqual([
      'All models',
      'dall-e-2 (2)',
      'flux-schnell (7)',
    ]);
    await page.getByRole('combobox', { name: 'Size' }).selectOption('768x512');
    await eventually(() => status(page).textContent()).toBe('4 images');

    // whole pictures: a 768×512 picture keeps 3:2 in its cell, not cropped to a square
    await page.getByRole('button', { name: 'Whole pictures' }).click();
    await eventually(() => grid(page).locator('canvas[data-thumb]').count()).toBe(4);
    const ratios = await grid(page)
      .locator('.tile-picture')
      .evaluateAll((boxes) =>
        boxes.map((box) => {
          const { width, height } = (box as unknown as Boxed).getBoundingClientRect();
          return Math.round((width / height) * 100) / 100;
        }),
      );
    expect(ratios).toEqual([1.5, 1.5, 1.5, 1.5]);

    // captions: each tile's prompt and model
    await page.getByRole('button', { name: 'Captions' }).click();
    const captions = grid(page).locator('.tile-caption');
    await eventually(() => captions.count()).toBe(4);
    expect(await captions.first().textContent()).toMatch(
      /^a (harbour|wheat|desert|glacier).*flux-schnell · 768 × 512$/,
    );
    await page.getByRole('combobox', { name: 'Size' }).selectOption('');
    await eventually(() => status(page).textContent()).toBe('8 images');
    await eventually(() => grid(page).locator('canvas[data-thumb]').count()).toBe(8);
    await screenshots(page, 'gallery-whole-captions');
    // the choice is kept for the next visit
    await page.reload();
    await page.getByRole('heading', { name: 'Gallery', level: 1 }).waitFor();
    await eventually(() =>
      page.getByRole('button', { name: 'Whole pictures' }).getAttribute('aria-pressed'),
    ).toBe('true');

    // the lightbox: generate again with the same seed, or more like it with new seeds
    const cellId = await page
      .getByRole('gridcell', { name: 'a harbour at dawn' })
      .getAttribute('id');
    const { seed } = await call<{ seed: number | null }>(page, 'images', 'get', {
      id: Number(cellId!.replace('image-', '')),
    });
    await page.getByRole('gridcell', { name: 'a harbour at dawn' }).dblclick();
    const lightbox = page.getByRole('dialog', { name: /^Image \d/ });
    const details = lightbox.getByRole('complementary', { name: 'Image details' });
    await eventually(() => details.textContent()).toContain('Seed');
    const same = details.getByRole('button', { name: 'Generate again with the same seed' });
    await same.waitFor();
    expect(seed).not.toBeNull();
    await same.click();
    const prompts = page.getByRole('textbox', { name: 'Prompts or templates' });
    await eventually(() => prompts.inputValue()).toBe('a harbour at dawn');
    expect(await page.getByRole('textbox', { name: /^Seeds/ }).inputValue()).toBe(String(seed));
    await eventually(() => page.getByLabel('Job count').textContent()).toBe('1 job · 1 image');

    await page.goBack();
    await page.getByRole('gridcell', { name: 'a harbour at dawn' }).dblclick();
    await lightbox.getByRole('button', { name: 'More like this' }).click();
    // Compose holds the re-run: replacing it is asked first
    await page
      .getByRole('dialog', { name: 'Replace your draft in Compose?' })
      .getByRole('button', { name: 'Replace draft' })
      .click();
    await eventually(() => page.getByRole('textbox', { name: /^Seeds/ }).inputValue()).toMatch(
      /^\d+, \d+, \d+, \d+$/,
    );
    const seeds = (await page.getByRole('textbox', { name: /^Seeds/ }).inputValue()).split(', ');
    expect(seeds).not.toContain(String(seed));
    await eventually(() => page.getByLabel('Job count').textContent()).toBe('4 jobs · 4 images');
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);
});
