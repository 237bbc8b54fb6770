import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoUi, startUiAgainst, type RunningUi } from '../../support/atelier-ui.ts';
import { launchChromium } from '../../support/browser.ts';
import { startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.ts';
import { call, eventually, screenshots } from '../../support/page-helpers.ts';
import { readZip } from '../../support/read-zip.ts';
import { localDay } from '../../../renderer/src/screens/gallery/day-range.ts';

/** What the tests read of page elements (the Node project has no DOM types). */
interface ImageLike {
  complete: boolean;
  naturalWidth: number;
}
interface VideoLike {
  readyState: number;
  error: unknown;
  controls: boolean;
  currentTime: number;
  videoWidth: number;
  videoHeight: number;
  muted: boolean;
  play(): Promise<void>;
}

interface BatchCounts {
  downloads: Record<string, number>;
  jobs: Record<string, number>;
}

/** 24 prompts, a quarter of them about a lighthouse: a search must find exactly those. */
function prompts(): Array<{ prompt: string }> {
  const subjects = [
    'a lighthouse in a storm',
    'red fox in snow',
    'a bowl of ramen',
    'an owl at dusk',
  ];
  return Array.from({ length: 24 }, (_, i) => ({ prompt: `${subjects[i % 4]}, study ${i + 1}` }));
}

async function openGallery(page: Page, url: string, problems: string[]): Promise<void> {
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(url);
  await page
    .getByRole('navigation', { name: 'Atelier' })
    .getByRole('link', { name: 'Gallery' })
    .click();
  await page.getByRole('heading', { name: 'Gallery', level: 1 }).waitFor();
}

const status = (page: Page) => page.getByRole('status').filter({ hasText: /image|Searching/ });
const grid = (page: Page) => page.getByRole('grid', { name: 'Images' });
const labels = (page: Page) =>
  grid(page)
    .getByRole('gridcell')
    .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('aria-label') ?? ''));

describe('the gallery against atelier ui --demo', () => {
  let ui: RunningUi;
  let browser: Browser;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ ui, browser, stop } = await startDemoUi('gallery'));
  }, 120_000);
  afterAll(async () => {
    await stop?.();
  });

  it('searches, favourites and filters what a batch made', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const problems: string[] = [];
    await openGallery(page, await ui.newAddress(), problems);
    await page.getByText('No images yet.').waitFor();
    // nothing to find yet: no search, no filters
    expect(await page.getByRole('searchbox', { name: 'Search prompts' }).count()).toBe(0);
    await screenshots(page, 'gallery-empty');

    await call(page, 'batches', 'create', {
      name: 'coast studies',
      source: { kind: 'rows', rows: prompts() },
      defaults: { model: 'flux-schnell', size: '256x256' },
    });
    // the images join the open gallery as they are written
    await eventually(() => status(page).textContent()).toBe('24 images');
    await eventually(() => grid(page).getByRole('gridcell').count()).toBe(24);
    // each tile draws its thumbnail into a canvas, from bundles of them (TileThumbnail.tsx)
    await eventually(() => grid(page).locator('canvas[data-thumb]').count()).toBe(24);
    await screenshots(page, 'gallery-grid');

    await page.getByRole('searchbox', { name: 'Search prompts' }).fill('lighthouse');
    await eventually(() => status(page).textContent()).toBe('6 images');
    await eventually(() => labels(page).then((all) => all.length)).toBe(6);
    for (const label of await labels(page)) expect(label).toContain('lighthouse');
    expect(await grid(page).locator('mark').first().textContent()).toBe('lighthouse');
    await screenshots(page, 'gallery-search');

    // the lightbox steps through the search's results with the keyboard
    const cells = grid(page).getByRole('gridcell');
    await cells.nth(0).dblclick();
    const lightbox = page.getByRole('dialog', { name: /^Image \d/ });
    await page.getByRole('dialog', { name: 'Image 1 of 6' }).waitFor();
    await lightbox
      .getByRole('img', { name: /lighthouse/ })
      .first()
      .waitFor();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.getByRole('dialog', { name: 'Image 3 of 6' }).waitFor();
    const details = lightbox.getByRole('complementary', { name: 'Image details' });
    await eventually(() => details.textContent()).toContain('flux-schnell');
    await screenshots(page, 'gallery-lightbox');
    await page.keyboard.press('ArrowLeft');
    await page.getByRole('dialog', { name: 'Image 2 of 6' }).waitFor();
    await page.keyboard.press('Escape');
    await eventually(() => lightbox.count()).toBe(0);

    // compare two side by side, then with the slider
    await cells.nth(2).click();
    await cells.nth(3).click({ modifiers: ['Shift'] });
    await page
      .getByRole('toolbar', { name: 'Selected images' })
      .getByRole('button', { name: 'Compare' })
      .click();
    const compare = page.getByRole('dialog', { name: 'Compare 2 images' });
    await eventually(() => compare.getByRole('figure').count()).toBe(2);
    await screenshots(page, 'gallery-compare');
    await compare.getByRole('button', { name: 'Slider' }).click();
    await compare.getByRole('slider', { name: 'Divider between A and B' }).waitFor();
    await screenshots(page, 'gallery-compare-slider');
    await page.keyboard.press('Escape');
    await eventually(() => compare.count()).toBe(0);

    // favourite two of them, then only favourites, whatever the search
    await cells.nth(0).click();
    await cells.nth(1).click({ modifiers: ['Shift'] });
    const actions = page.getByRole('toolbar', { name: 'Selected images' });
    await eventually(() => actions.textContent()).toContain('2 selected');
    await actions.getByRole('button', { name: '★ Favourite' }).click();
    await page.getByRole('searchbox', { name: 'Search prompts' }).fill('');
    await page.getByRole('button', { name: /Favourites/ }).click();
    await eventually(() => status(page).textContent()).toBe('2 images');
    for (const label of await labels(page)) expect(label).toMatch(/lighthouse.*\(favourite\)$/);
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await eventually(() => status(page).textContent()).toBe('24 images');

    // days: a preset, then days of one's own (from tomorrow: none), then every day again
    const days = page.getByRole('combobox', { name: 'Days' });
    await days.selectOption({ label: 'Past 7 days' });
    await eventually(() => page.getByRole('button', { name: 'Clear filters' }).count()).toBe(1);
    await eventually(() => status(page).textContent()).toBe('24 images');
    expect(await page.getByLabel('From day').count()).toBe(0);
    await days.selectOption({ label: 'Choose days…' });
    const tomorrow = localDay(new Date(Date.now() + 86_400_000));
    await page.getByLabel('From day').fill(tomorrow);
    await eventually(() => status(page).textContent()).toBe('0 images');
    await screenshots(page, 'gallery-days-none');
    await days.selectOption({ label: 'Any day' });
    await eventually(() => status(page).textContent()).toBe('24 images');
    expect(await page.getByLabel('From day').count()).toBe(0);

    // export three: a zip with their files and a manifest of their prompts
    await page.getByRole('searchbox', { name: 'Search prompts' }).fill('fox');
    await eventually(() => status(page).textContent()).toBe('6 images');
    await cells.nth(0).click();
    await cells.nth(2).click({ modifiers: ['Shift'] });
    await actions.getByRole('button', { name: 'Export…' }).click();
    const exports = page.getByRole('region', { name: 'Exports' });
    await eventually(() => exports.textContent()).toContain('Exported 3 images');
    await screenshots(page, 'gallery-exported');
    const zipPath = /(\/\S+\.zip)/.exec((await exports.textContent()) ?? '')![1]!;
    const entries = await readZip(zipPath);
    expect(entries.map((e) => e.name).filter((n) => n.endsWith('.png'))).toHaveLength(3);
    const manifest = entries.find((e) => e.name === 'manifest.csv')!.data.toString('utf8');
    expect(manifest.trim().split('\n')).toHaveLength(4);
    expect(manifest.match(/red fox in snow/g)).toHaveLength(3);
    // the browser can download it too
    const download = exports.getByRole('link', { name: 'Download zip' });
    const href = (await download.getAttribute('href'))!;
    // a link carries no header: it is signed with the tab's media key, and opens that zip only
    expect(href).toMatch(/^\/exports\/[\w-]+\.zip\?exp=\d+&sid=[\w-]+&sig=[\w-]{43}$/);
    const downloaded = await fetch(`${ui.origin}${href}`);
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(readFileSync(zipPath))).toBe(true);
    const unsigned = await fetch(`${ui.origin}${href.split('?')[0]}`);
    expect(unsigned.status).toBe(401);
    await exports.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByRole('searchbox', { name: 'Search prompts' }).fill('');

    // grouped by batch: one header with the batch's name and count
    await page.getByRole('combobox', { name: 'Group' }).selectOption('batch');
    await eventually(() => grid(page).getByRole('rowheader').first().textContent()).toBe(
      'coast studies 24 images',
    );
    await page.setViewportSize({ width: 760, height: 700 });
    // a narrow window wraps the controls, not the search box down to a few letters
    const search = await page.getByRole('searchbox', { name: 'Search prompts' }).boundingBox();
    expect(search!.width).toBeGreaterThanOrEqual(155);
    await screenshots(page, 'gallery-narrow');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
  it('shows a video by its poster and plays it in the lightbox', async () => {
    const context = await browser.newContext({ viewport: { width: 1180, height: 800 } });
    const page = await context.newPage();
    const problems: string[] = [];
    await openGallery(page, await ui.newAddress(), problems);
    await call(page, 'batches', 'create', {
      name: 'clips',
      source: { kind: 'rows', rows: [{ prompt: 'waves breaking at night', model: 'sora-2' }] },
      defaults: { extra: { seconds: '4' } },
    });
    await page.getByRole('searchbox', { name: 'Search prompts' }).fill('waves');
    const tile = grid(page).getByRole('gridcell', { name: 'waves breaking at night (video)' });
    await tile.waitFor({ timeout: 60_000 });
    // the poster is the core's thumbnail of the gateway's first frame, decoded
    await eventually(() =>
      tile.locator('img').evaluate((img: ImageLike) => img.complete && img.naturalWidth),
    ).toBeGreaterThan(0);
    await tile.dblclick();
    const video = page.getByRole('dialog', { name: /^Video 1 of/ }).locator('video');
    await eventually(() => video.evaluate((v: VideoLike) => v.readyState)).toBeGreaterThan(1);
    expect(await video.evaluate((v: VideoLike) => [v.error, v.controls])).toEqual([null, true]);
    await video.evaluate((v: VideoLike) => {
      v.muted = true;
      return v.play();
    });
    await eventually(() => video.evaluate((v: VideoLike) => v.currentTime)).toBeGreaterThan(0.2);
    // its pixels, as the player read them from the file's header; fitted, with no zoom
    const [width, height] = await video.evaluate((v: VideoLike) => [v.videoWidth, v.videoHeight]);
    const details = page.getByRole('complementary', { name: 'Image details' });
    await eventually(() => details.textContent()).toContain(`Pixels${width} × ${height}`);
    expect(await details.textContent()).toContain("Size askedthe model's default");
    expect(await page.getByRole('status', { name: 'Zoom' }).textContent()).toBe('Fit');
    expect(await page.getByRole('button', { name: 'Zoom in' }).isDisabled()).toBe(true);
    await screenshots(page, 'gallery-video');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('the gallery against a gateway whose image links fail', () => {
  let gateway: GatewayProcess;
  let ui: RunningUi;
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    // the 2nd and 5th image links answer 404 once: an expired link, as a store says it
    gateway = await startGatewayProcess(['--latency-ms', '10', '--faults', 'url-404@2+5']);
    dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-gallery-faults-'));
    ui = await startUiAgainst(gateway, path.join(dir, 'data'), path.join(dir, 'library'));
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await ui?.stop();
    await gateway?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('retries the failed downloads from the gallery without a new generation', async () => {
    const context = await browser.newContext({ viewport: { width: 1180, height: 860 } });
    const page = await context.newPage();
    const problems: string[] = [];
    await openGallery(page, await ui.newAddress(), problems);
    await call(page, 'batches', 'create', {
      name: 'tide pools',
      source: { kind: 'rows', rows: prompts().slice(0, 8) },
      defaults: { model: 'flux-schnell', size: '256x256', response_format: 'url' },
    });
    await eventually(() =>
      call<BatchCounts>(page, 'batches', 'get', { id: 1 }).then((b) => b.jobs['succeeded']),
    ).toBe(8);
    await eventually(() => status(page).textContent()).toBe('6 images');

    await page.getByRole('combobox', { name: 'Show' }).selectOption('expired');
    await eventually(() => status(page).textContent()).toBe('2 images');
    const expired = grid(page).getByRole('gridcell', { name: /link expired/ });
    await eventually(() => expired.count()).toBe(2);
    await expect(expired.first().getByRole('button', { name: 'Generate again…' })).toBeTruthy();
    await screenshots(page, 'gallery-expired');

    const generations = (await gateway.ledger()).length;
    expect(generations).toBe(8);
    await page
      .getByRole('toolbar', { name: 'Selected images' })
      .getByRole('button', { name: 'Retry 2 downloads' })
      .click();
    await eventually(() => status(page).textContent()).toBe('0 images');
    await page.getByRole('combobox', { name: 'Show' }).selectOption('written');
    await eventually(() => status(page).textContent()).toBe('8 images');
    expect(await gateway.ledger()).toHaveLength(generations); // no new generation
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
