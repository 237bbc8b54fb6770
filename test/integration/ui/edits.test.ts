import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import { SCREENSHOTS, startUiAgainst, type RunningUi } from '../../support/atelier-ui.ts';
import { launchChromium } from '../../support/browser.ts';
import { pixels, rectMask } from '../../support/edit-pictures.ts';
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

/** Searches the gallery; done once every tile shown marks the words (the search is applied). */
async function search(page: Page, text: string, count: number) {
  await page.getByRole('searchbox', { name: 'Search prompts' }).fill(text);
  await eventually(() => grid(page).locator('[role="gridcell"]:has(mark)').count()).toBe(count);
  await eventually(() => grid(page).getByRole('gridcell').count()).toBe(count);
}
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

  it('edits three selected images with one prompt, the mask scaled to each and a shape that differs named', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 820 } });
    const page = await context.newPage();
    const problems: string[] = [];
    await openGallery(page, problems);
    // one request at a time, so the images are numbered in the rows' order (the gallery shows
    // the newest first by number: in parallel, the one answered last would come first)
    const { concurrency } = await call<{ concurrency: number }>(page, 'settings', 'get', {});
    await call(page, 'settings', 'update', { concurrency: 1 });
    await pictures(page, 'fields', [
      { prompt: 'a wheat field', size: '512x384' },
      { prompt: 'a barley field', size: '256x192' },
      { prompt: 'a square field', size: '384x384' },
    ]);
    await call(page, 'settings', 'update', { concurrency });
    await search(page, 'field', 3);
    // newest first: the square one, the barley, the wheat
    const actions = page.getByRole('toolbar', { name: 'Selected images' });
    await tile(page, 'a wheat field').click();
    // the range starts where the first click landed: wait for it, as a person sees it
    await eventually(() => tile(page, 'a wheat field').getAttribute('aria-selected')).toBe('true');
    await eventually(() => actions.textContent()).toContain('1 selected');
    await tile(page, 'a square field').click({ modifiers: ['Shift'] });
    await eventually(() => actions.textContent()).toContain('3 selected');
    // past the confirmation threshold (2 requests here), the edit asks before it spends
    await call(page, 'settings', 'update', { confirmSpend: { units: null, requests: 2 } });
    await actions.getByRole('button', { name: 'Edit…' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit 3 images' });
    await editor.waitFor();
    const strip = editor.getByRole('region', { name: 'Pictures' });
    await eventually(() => strip.getByRole('listitem').count()).toBe(3);

    // painted over the first of the selection, in the grid's order
    const mask = editor.getByRole('region', { name: 'Mask' });
    await mask.getByText('Painted at the picture’s own size, 384 × 384.').waitFor();
    await drag(page, editor.getByRole('img', { name: 'a square field' }), [0.1, 0.2], [0.9, 0.2]);
    await editor.getByRole('combobox', { name: 'Model' }).selectOption('flux-schnell');
    await editor.getByRole('textbox', { name: 'Prompt' }).fill('golden hour light');
    const warnings = editor.getByRole('list', { name: 'Warnings' });
    // the two 4:3 pictures share one warning, said once and naming both
    await eventually(() => warnings.textContent()).toMatch(
      /^2 pictures: The mask is 1:1 and the picture 4:3: the mask is stretched to fit, so what it covers moves\.Image \d+ \(fields\/.*\) · Image \d+ \(fields\/.*\)$/,
    );
    expect(await warnings.getByRole('listitem').count()).toBe(1);
    await editor.getByText('Ready: 3 jobs, 3 images; read the warning below first.').waitFor();
    await screenshots(page, 'edit-many');

    const before = gateway.receivedEdits().length;
    await editor.getByRole('button', { name: 'Run 3 edits' }).click();
    const ask = page.getByRole('dialog', { name: /^Spend about / });
    await ask.waitFor();
    expect(gateway.receivedEdits().length).toBe(before); // nothing sent while it asks
    expect(await ask.getByRole('note').count()).toBe(0); // a real gateway: no demo note
    await ask.getByRole('button', { name: /^Run and spend / }).click();
    await editor.waitFor({ state: 'detached' });
    await call(page, 'settings', 'update', { confirmSpend: { units: null, requests: null } });
    await eventually(() => gateway.receivedEdits().length).toBe(before + 3);
    const sent = gateway
      .receivedEdits()
      .slice(before)
      .map((edit) => ({
        prompt: edit.fields['prompt'],
        image: `${edit.image.width}x${edit.image.height}`,
        mask: edit.mask && `${edit.mask.width}x${edit.mask.height}`,
        hard: edit.mask?.partial === 0 && edit.mask.hasAlpha,
      }))
      .sort((a, b) => a.image.localeCompare(b.image));
    expect(sent).toEqual([
      { prompt: 'golden hour light', image: '256x192', mask: '256x192', hard: true },
      { prompt: 'golden hour light', image: '384x384', mask: '384x384', hard: true },
      { prompt: 'golden hour light', image: '512x384', mask: '512x384', hard: true },
    ]);
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);

  it('opens from the tile menu; a mask loads from a file and saves to one at the picture’s size', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 820 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const problems: string[] = [];
    await openGallery(page, problems);
    await pictures(page, 'towers', [{ prompt: 'a tower of stones', size: '320x240' }]);
    await search(page, 'tower', 1);
    await tile(page, 'a tower of stones').click({ button: 'right' });
    const menu = page.getByRole('menu', { name: 'Image' });
    await menu.getByRole('menuitem', { name: /^Edit…/ }).click();
    const editor = page.getByRole('dialog', { name: 'Edit image' });
    const mask = editor.getByRole('region', { name: 'Mask' });
    await mask.getByText('Painted at the picture’s own size, 320 × 240.').waitFor();

    // a mask file of another size but the same shape: its transparent quarter is what may change
    const file = path.join(dir, 'quarter.png');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, await rectMask(640, 480, { left: 0, top: 0, width: 320, height: 240 }));
    await mask.getByLabel('Mask file').setInputFiles(file);
    await eventually(() => mask.getByRole('status').textContent()).toBe(
      '25% of the picture may change: the painted part.',
    );
    await page.getByText(/^Mask loaded from quarter.png: its transparent parts/).waitFor();

    const download = page.waitForEvent('download');
    await mask.getByRole('button', { name: 'Save' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toMatch(/^mask-\d+-320x240\.png$/);
    const savedPath = path.join(dir, 'saved-mask.png');
    await saved.saveAs(savedPath);
    const png = await pixels(readFileSync(savedPath));
    expect([png.width, png.height, png.channels]).toEqual([320, 240, 4]);
    // encoded off the window's thread
    expect(page.workers().map((w) => path.basename(new URL(w.url()).pathname))).toEqual([
      expect.stringMatching(/^mask-export-worker/),
    ]);
    expect(png.at(10, 10)).toEqual([0, 0, 0, 0]);
    expect(png.at(300, 200)).toEqual([0, 0, 0, 255]);
    // hard-edged: nothing between
    const alphas = new Set<number>();
    for (let i = 3; i < png.data.length; i += 4) alphas.add(png.data[i]!);
    expect([...alphas].sort((a, b) => a - b)).toEqual([0, 255]);

    // undo brings the empty mask back; the kept mask returns when the editor opens again
    await page.keyboard.press('Control+z');
    await eventually(() => mask.getByRole('status').textContent()).toMatch(/^No mask/);
    // (Save went disabled with the mask and the focus with it: the keys still reach the editor)
    await page.keyboard.press('Control+Shift+z');
    await eventually(() => mask.getByRole('status').textContent()).toMatch(/^25%/);
    await page.keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });
    await tile(page, 'a tower of stones').click();
    await page.keyboard.press('e');
    await eventually(() => mask.getByRole('status').textContent()).toBe(
      '25% of the picture may change: the painted part.',
    );
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);

  it('the tools by their keys (eraser, sizes, invert, clear, zoom and move), the brush remembered, a model without a mask refused per row, two prompts kept outside the mask', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 820 } });
    const page = await context.newPage();
    const problems: string[] = [];
    await openGallery(page, problems);
    await pictures(page, 'ponds', [{ prompt: 'a quiet pond', size: '512x384' }]);
    await search(page, 'pond', 1);
    await tile(page, 'a quiet pond').click();
    await page.keyboard.press('e');
    const editor = page.getByRole('dialog', { name: 'Edit image' });
    const mask = editor.getByRole('region', { name: 'Mask' });
    await mask.getByText('Painted at the picture’s own size, 512 × 384.').waitFor();
    const tools = editor.getByRole('toolbar', { name: 'Mask tools' });
    const sizeShown = () => tools.locator('output.ed-size-value').textContent();
    const share = async () => {
      const text = (await mask.getByRole('status').textContent()) ?? '';
      return /^No mask/.test(text) ? 0 : Number(/^(\d+)%/.exec(text)?.[1] ?? NaN);
    };
    const settled = async (expected: (value: number) => boolean) => {
      await eventually(async () => expected(await share())).toBe(true);
      return share();
    };

    // [ and ] step the size by about a sixth
    expect(await sizeShown()).toBe('64 px');
    await page.keyboard.press(']');
    await page.keyboard.press(']');
    await page.keyboard.press('[');
    expect(await sizeShown()).toBe('72 px');

    const picture = editor.getByRole('img', { name: 'a quiet pond' });
    await drag(page, picture, [0.2, 0.5], [0.8, 0.5]);
    const painted = await settled((v) => v > 0);
    // the eraser takes half the stroke away
    await page.keyboard.press('e');
    await eventually(() =>
      tools.getByRole('button', { name: 'Eraser' }).getAttribute('aria-pressed'),
    ).toBe('true');
    await drag(page, picture, [0.15, 0.5], [0.5, 0.5]);
    const erased = await settled((v) => v > 0 && v < painted);
    // inverted: what was kept may change, and back the other way
    await page.keyboard.press('i');
    const inverted = await settled((v) => Math.abs(v - (100 - erased)) <= 1);
    await page.keyboard.press('Delete');
    await settled((v) => v === 0);
    await page.keyboard.press('Control+z');
    await settled((v) => v === inverted);
    await page.keyboard.press('i');
    await settled((v) => v === erased);

    // zoom in, move by the arrows and by Space held, fit again
    const fitted = (await picture.boundingBox())!;
    await page.keyboard.press('+');
    await eventually(() => tools.getByRole('status', { name: 'Zoom' }).textContent()).not.toBe(
      'Fit',
    );
    const zoomed = (await picture.boundingBox())!;
    expect(zoomed.width).toBeGreaterThan(fitted.width * 1.1);
    await page.keyboard.press('ArrowRight');
    await eventually(async () => (await picture.boundingBox())!.x).not.toBe(zoomed.x);
    const arrowed = (await picture.boundingBox())!;
    await page.keyboard.down(' ');
    await drag(page, picture, [0.5, 0.5], [0.6, 0.6]);
    await page.keyboard.up(' ');
    const moved = (await picture.boundingBox())!;
    expect(moved.y).toBeGreaterThan(arrowed.y + 10);
    // (moving paints nothing)
    expect(await share()).toBe(erased);
    await page.keyboard.press('0');
    await eventually(() => tools.getByRole('status', { name: 'Zoom' }).textContent()).toBe('Fit');

    // the brush is remembered by the next window
    await page.keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });
    const again = await context.newPage();
    await openGallery(again, problems);
    await search(again, 'pond', 1);
    await tile(again, 'a quiet pond').click();
    await again.keyboard.press('e');
    const second = again.getByRole('dialog', { name: 'Edit image' });
    const secondTools = second.getByRole('toolbar', { name: 'Mask tools' });
    await eventually(() =>
      secondTools.getByRole('button', { name: 'Eraser' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(await secondTools.locator('output.ed-size-value').textContent()).toBe('72 px');
    await page.close();

    // a model that takes no mask: the row it fails is named, Run waits
    await again.keyboard.press('b');
    // the brush is taken before the stroke: an eraser's stroke on no mask paints nothing
    await eventually(() =>
      secondTools.getByRole('button', { name: 'Brush' }).getAttribute('aria-pressed'),
    ).toBe('true');
    const secondMask = second.getByRole('region', { name: 'Mask' });
    await drag(again, second.getByRole('img', { name: 'a quiet pond' }), [0.3, 0.3], [0.7, 0.3]);
    await eventually(() => secondMask.getByRole('status').textContent()).toMatch(/^\d+%/);
    await second.getByRole('textbox', { name: 'Prompts' }).fill('a lily pad\na small frog');
    await second.getByRole('combobox', { name: 'Model' }).selectOption('qwen-image-edit');
    const refused = second.getByRole('list', { name: 'Problems' }).getByRole('listitem');
    await eventually(() => refused.count()).toBeGreaterThan(0);
    expect(await refused.first().textContent()).toBe(
      'The settings: qwen-image-edit takes no mask; describe the change in the prompt instead.',
    );
    expect(await second.getByRole('button', { name: 'Run 2 edits' }).isDisabled()).toBe(true);

    await second.getByRole('combobox', { name: 'Model' }).selectOption('flux-schnell');
    await second.getByRole('checkbox', { name: /Keep the picture outside the mask/ }).check();
    await second.getByText('Ready: 2 jobs, 2 images.').waitFor();
    const before = gateway.receivedEdits().length;
    await second.getByRole('button', { name: 'Run 2 edits' }).click();
    await second.waitFor({ state: 'detached' });
    await eventually(() => gateway.receivedEdits().length).toBe(before + 2);
    const prompts = gateway
      .receivedEdits()
      .slice(before)
      .map((edit) => edit.fields['prompt'])
      .sort();
    expect(prompts).toEqual(['a lily pad', 'a small frog']);

    // outside the mask the results are the source's own pixels (the gateway drifted them)
    const sourceId = Number(
      (await tile(again, 'a quiet pond').getAttribute('id'))?.replace('image-', ''),
    );
    const source = await call<{ relPath: string }>(again, 'images', 'get', { id: sourceId });
    let results: Array<{ relPath: string | null }> = [];
    await eventually(async () => {
      results = (
        await call<{ items: Array<{ relPath: string | null }> }>(again, 'images', 'page', {
          query: { editedFrom: sourceId },
        })
      ).items;
      return results.length;
    }).toBe(2);
    const library = path.join(dir, 'library');
    const original = await pixels(readFileSync(path.join(library, source.relPath)));
    for (const result of results) {
      const edited = await pixels(readFileSync(path.join(library, result.relPath!)));
      expect(edited.at(10, 370).slice(0, 3)).toEqual(original.at(10, 370).slice(0, 3));
      expect(edited.at(500, 10).slice(0, 3)).toEqual(original.at(500, 10).slice(0, 3));
    }
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);
});
