import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import { SCREENSHOTS, startUiAgainst, type RunningUi } from '../../support/atelier-ui.ts';
import { launchChromium } from '../../support/browser.ts';
import { pixels } from '../../support/edit-pictures.ts';
import { call, eventually, screenshots } from '../../support/page-helpers.ts';

// Edits from the window, against `atelier ui` on a simulator in this process: a mask painted by
// mouse, one picture edited and found in the gallery linked to its source, three pictures with
// one prompt; what the gateway received is read from the simulator itself.

let dir: string;
let gateway: RunningGateway;
let ui: RunningUi;
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-edits-ui-'));
  gateway = await startGateway({ latencyMs: 0 });
  ui = await startUiAgainst(gateway, path.join(dir, 'data'), path.join(dir, 'library'));
  browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ui?.stop();
  await gateway?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface BatchSummary {
  id: number;
  jobCount: number;
  downloads: Record<string, number>;
}

async function openGallery(page: Page, problems: string[]): Promise<void> {
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(await ui.newAddress('/gallery'));
  await page.getByRole('heading', { name: 'Gallery', level: 1 }).waitFor();
}

/** A batch of pictures made by the simulator, every one on disk. */
async function pictures(page: Page, name: string, rows: Array<{ prompt: string; size: string }>) {
  const batch = await call<BatchSummary>(page, 'batches', 'create', {
    name,
    source: { kind: 'rows', rows },
    defaults: { model: 'flux-schnell' },
  });
  await eventually(
    async () =>
      (await call<BatchSummary>(page, 'batches', 'get', { id: batch.id })).downloads['done'],
  ).toBe(rows.length);
  return batch;
}

const grid = (page: Page) => page.getByRole('grid', { name: 'Images' });
const tile = (page: Page, prompt: string) =>
  grid(page).getByRole('gridcell', { name: new RegExp(`^${prompt}`) });

/** Drags from `from` to `to` (fractions of the element's box) in small steps, as a hand does. */
async function drag(page: Page, on: Locator, from: [number, number], to: [number, number]) {
  const box = (await on.boundingBox())!;
  const at = (f: [number, number]) => [box.x + box.width * f[0], box.y + box.height * f[1]];
  const [x0, y0] = at(from);
  const [x1, y1] = at(to);
  await page.mouse.move(x0!, y0!);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) {
    await page.mouse.move(x0! + ((x1! - x0!) * i) / 12, y0! + ((y1! - y0!) * i) / 12);
  }
  await page.mouse.up();
}

describe('edits in the window', () => {
  it('paints a mask by mouse, runs the edit, and finds the result linked to its source', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 820 } });
    const page = await context.newPage();
    const problems: string[] = [];
    await openGallery(page, problems);
    await pictures(page, 'harbour', [
      { prompt: 'a harbour at dawn', size: '512x384' },
      { prompt: 'a lighthouse at night', size: '512x384' },
    ]);
    await tile(page, 'a harbour at dawn').click();
    // E edits the image the grid rests on
    await page.keyboard.press('e');
    const editor = page.getByRole('dialog', { name: 'Edit image' });
    await editor.waitFor();
    const mask = editor.getByRole('region', { name: 'Mask' });
    await mask.getByText('Painted at the picture’s own size, 512 × 384.').waitFor();
    await eventually(() => mask.getByRole('status').textContent()).toMatch(/^No mask/);

    // a stroke across the middle of the picture, in the picture's own pixels
    const picture = editor.getByRole('img', { name: 'a harbour at dawn' });
    await drag(page, picture, [0.25, 0.5], [0.75, 0.5]);
    await eventually(() => mask.getByRole('status').textContent()).toMatch(
      /^\d+% of the picture may change/,
    );
    // undone and redone, by the keys
    await page.keyboard.press('Control+z');
    await eventually(() => mask.getByRole('status').textContent()).toMatch(/^No mask/);
    await page.keyboard.press('Control+Shift+z');
    await eventually(() => mask.getByRole('status').textContent()).toMatch(/may change/);

    await editor.getByRole('combobox', { name: 'Model' }).selectOption('flux-schnell');
    await editor.getByRole('spinbutton', { name: /Images each/ }).fill('2');
    await editor.getByRole('textbox', { name: 'Prompts' }).fill('a red boat on the water');
    await editor.getByText('Ready: 1 job, 2 images.').waitFor();
    await screenshots(page, 'edit-editor');
    await page.setViewportSize({ width: 760, height: 760 });
    await screenshots(page, 'edit-editor-narrow');
    await page.setViewportSize({ width: 1280, height: 820 });

    const before = gateway.receivedEdits().length;
    await editor.getByRole('button', { name: 'Run 1 edit' }).click();
    await editor.waitFor({ state: 'detached' });
    await page.getByText(/^Queued 1 edit: Edit: a red boat on the water/).waitFor();

    // the gateway received the picture at its size and a hard-edged mask of the same size
    await eventually(() => gateway.receivedEdits().length).toBe(before + 1);
    const sent = gateway.receivedEdits().at(-1)!;
    expect(sent).toMatchObject({
      model: 'flux-schnell',
      body: 'multipart',
      imageField: 'image',
      fields: expect.objectContaining({ prompt: 'a red boat on the water', n: '2' }),
      image: { width: 512, height: 384, format: 'png' },
      mask: { width: 512, height: 384, format: 'png', hasAlpha: true, partial: 0 },
    });
    // transparent (may change) along the stroke, kept away from it
    const sentMask = await pixels(
      readFileSync(path.join(dir, 'data', 'edit-inputs', `${sent.mask!.sha256}.png`)),
    );
    expect(sentMask.at(256, 192)[3]).toBe(0);
    expect(sentMask.at(160, 192)[3]).toBe(0);
    expect(sentMask.at(256, 40)[3]).toBe(255);
    expect(sentMask.at(20, 360)[3]).toBe(255);
    expect(sentMask.at(256, 40).slice(0, 3)).toEqual([0, 0, 0]);
    expect(sent.mask!.transparent).toBeGreaterThan(512 * 384 * 0.02);
    expect(sent.mask!.transparent).toBeLessThan(512 * 384 * 0.4);

    // the results, edits only, say what they were edited from
    await page.getByRole('combobox', { name: 'Origin' }).selectOption('edits');
    await eventually(() => grid(page).getByRole('gridcell').count()).toBe(2);
    await grid(page).getByRole('gridcell').first().dblclick();
    const lightbox = page.getByRole('dialog', { name: 'Image 1 of 2' });
    const details = lightbox.getByRole('complementary', { name: 'Image details' });
    const source = details.getByRole('button', { name: /^image \d+ \(/ });
    await source.waitFor();
    await expect(details.textContent()).resolves.toContain('The painted part');
    await screenshots(page, 'edit-result');

    // before and after: compare's slider over the source and the edit
    await details.getByRole('button', { name: 'Before / after' }).click();
    const compare = page.getByRole('dialog', { name: 'Compare 2 images' });
    await compare.getByRole('slider', { name: 'Divider between A and B' }).waitFor();
    await screenshots(page, 'edit-before-after');
    await page.keyboard.press('Escape');
    await compare.waitFor({ state: 'detached' });

    // the link leads to the source (not in this view: shown before the edit)
    await source.click();
    const shown = page.getByRole('dialog', { name: 'Image 1 of 2' });
    await shown.getByRole('img', { name: 'a harbour at dawn' }).first().waitFor();
    await eventually(() =>
      shown.getByRole('complementary', { name: 'Image details' }).textContent(),
    ).toMatch(/Edits2 made from this picture/);
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);
});
