import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoUi, type RunningUi } from '../../support/atelier-ui.ts';
import { call, eventually } from '../../support/page-helpers.ts';

let ui: RunningUi;
let browser: Browser;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ ui, browser, stop } = await startDemoUi('reused-path'));
}, 120_000);

afterAll(async () => {
  await stop?.();
});

interface Image {
  id: number;
  relPath: string;
}

/** One image made by a batch named `name`, at `size`: written, its id and path. */
async function makeOne(page: Page, name: string, size: string): Promise<Image> {
  const batch = await call<{ id: number }>(page, 'batches', 'create', {
    name,
    source: { kind: 'rows', rows: [{ prompt: 'a lighthouse at night' }] },
    defaults: { model: 'flux-schnell', size },
  });
  await eventually(async () => {
    const page_ = await call<{ items: Image[] }>(page, 'images', 'page', {
      query: { batchId: batch.id },
    });
    return page_.items.length;
  }).toBe(1);
  const { items } = await call<{ items: Image[] }>(page, 'images', 'page', {
    query: { batchId: batch.id },
  });
  return items[0]!;
}

/** The size of what the gallery's one tile draws, and of the lightbox's picture. */
async function shownSizes(page: Page): Promise<{ tile: string; lightbox: string }> {
  const tile = page.locator('canvas[data-thumb]');
  await eventually(() => tile.count()).toBe(1);
  const tileSize = await tile.evaluate((c) => {
    const canvas = c as unknown as { width: number; height: number };
    return `${canvas.width}x${canvas.height}`;
  });
  await page.getByRole('grid', { name: 'Images' }).getByRole('gridcell').first().dblclick();
  const picture = page.getByRole('dialog').locator('img').first();
  await eventually(() =>
    picture.evaluate((img) => (img as unknown as { complete: boolean }).complete),
  ).toBe(true);
  const lightbox = await picture.evaluate((img) => {
    const i = img as unknown as { naturalWidth: number; naturalHeight: number };
    return `${i.naturalWidth}x${i.naturalHeight}`;
  });
  await page.keyboard.press('Escape');
  return { tile: tileSize, lightbox };
}

describe('a path a newer image reuses', () => {
  it('never shows the older picture, in the same tab or after a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 1180, height: 820 } });
    const page = await context.newPage();
    await page.goto(await ui.newAddress('/gallery'));
    await page.getByRole('heading', { name: 'Gallery', level: 1 }).waitFor();
    // names without the seed: the same prompt in a batch of the same name is the same path
    await call(page, 'settings', 'update', { template: '{batch}/{index}-{slug}.{ext}' });

    const square = await makeOne(page, 'reused', '256x256');
    expect(await shownSizes(page)).toEqual({ tile: '256x256', lightbox: '256x256' });

    // the batch deleted, files and all, then made again under its name: a wide picture now
    await call(page, 'images', 'delete', { ids: [square.id] });
    const batches = await call<{ items: Array<{ id: number; name: string }> }>(
      page,
      'batches',
      'list',
      {},
    );
    await call(page, 'batches', 'delete', {
      id: batches.items.find((b) => b.name === 'reused')!.id,
    });
    const wide = await makeOne(page, 'reused', '512x256');
    expect(wide.relPath).toBe(square.relPath);

    expect(await shownSizes(page)).toEqual({ tile: '256x128', lightbox: '512x256' });
    await page.reload();
    await page.getByRole('heading', { name: 'Gallery', level: 1 }).waitFor();
    expect(await shownSizes(page)).toEqual({ tile: '256x128', lightbox: '512x256' });
    await context.close();
  }, 120_000);
});
