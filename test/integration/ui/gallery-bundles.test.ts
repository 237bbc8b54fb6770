import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDERER_DIR } from '../../../main/cli/commands/ui.ts';
import { silentLogger } from '../../../main/core/logger.ts';
import { startWebHost, type WebHost } from '../../../main/web/web-host.ts';
import { seedGallery, type GallerySeed } from '../../bench/gallery-seed.ts';
import { launchChromium } from '../../support/browser.ts';
import { eventually } from '../../support/page-helpers.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';

const grid = (page: Page) => page.getByRole('grid', { name: 'Images' });

/**
 * Whether every tile inside the grid's box shows its thumbnail (a canvas with `data-thumb`),
 * and how many there are.
 */
const drawn = (page: Page) =>
  grid(page).evaluate((scroller) => {
    const box = scroller.getBoundingClientRect();
    const cells = [...scroller.querySelectorAll('[role="gridcell"]')].filter((cell) => {
      const r = cell.getBoundingClientRect();
      return r.bottom > box.top && r.top < box.bottom;
    });
    const shown = cells.filter((cell) => cell.querySelector('canvas[data-thumb]')).length;
    return cells.length > 0 && shown === cells.length ? shown : 0;
  });

/** The requests the page makes, by kind: thumbnail bundles and the tiles' details. */
function countRequests(page: Page) {
  const seen = { bundles: 0, byIds: 0 };
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname === '/thumb-bundle') seen.bundles++;
    if (pathname === '/api/images/byIds') seen.byIds++;
  });
  return {
    /** What was asked since the last call. */
    take() {
      const now = { ...seen };
      seen.bundles = 0;
      seen.byIds = 0;
      return now;
    },
  };
}

// The browser spends milliseconds of its own on every request, so a screen of tiles gets its
// thumbnails in one bundle (docs/performance.md). Each render asks for its own: the tiles of
// one answer must come in one render.
describe('the gallery asks for a screen of thumbnails in one request', () => {
  let dir: string;
  let seed: GallerySeed;
  let test: TestService;
  let host: WebHost;
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-gallery-bundles-'));
    // more images than the first screen's details (120) and a screen below them
    seed = await seedGallery({ dir, images: 600, distinct: 8, poolDir: path.join(dir, 'pool') });
    test = await openTestService(dir);
    host = await startWebHost({
      app: test.service,
      rendererDir: RENDERER_DIR,
      logger: silentLogger,
    });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await host?.close();
    await test?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('on opening, scrolled to tiles whose details are not known, and searching', async () => {
    const page = await context.newPage();
    const requests = countRequests(page);
    await page.goto(host.newAddress('/gallery'));
    await eventually(() => drawn(page)).toBeGreaterThan(0);
    // the first screen's details came with the ids
    expect(requests.take()).toEqual({ bundles: 1, byIds: 0 });

    // the end of the grid: its tiles' details are asked for together, then drawn together
    await grid(page).evaluate((scroller) => scroller.scrollTo({ top: scroller.scrollHeight }));
    await eventually(() => drawn(page)).toBeGreaterThan(0);
    expect(requests.take()).toEqual({ bundles: 1, byIds: 1 });

    const box = page.getByRole('searchbox', { name: 'Search prompts' });
    await box.fill('watercolor');
    await box.press('Enter');
    const matches = seed.matches['watercolor']!.toLocaleString('en-US');
    await eventually(() =>
      page.getByRole('status').filter({ hasText: /image/ }).textContent(),
    ).toBe(`${matches} images`);
    await eventually(() => drawn(page)).toBeGreaterThan(0);
    expect(requests.take()).toEqual({ bundles: 1, byIds: 0 });
  }, 90_000);
});
