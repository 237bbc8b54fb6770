import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, startUi, startUiAgainst, type RunningUi } from '../../support/atelier-ui.ts';
import { launchChromium } from '../../support/browser.ts';
import { startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.ts';
import { call, eventually, screenshots } from '../../support/page-helpers.ts';

/**
 * The window shows what the service knows, as it learns it, from its events alone: a failure
 * the moment it is final, a change made in another window or another process, and nothing
 * asked while nothing changes.
 */

let dir: string;
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-live-'));
  browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Batch {
  id: number;
  name: string;
  jobs: Record<string, number>;
  downloads: Record<string, number>;
}

async function open(
  context: BrowserContext,
  url: string,
  screen: 'Queue' | 'Gallery' | 'Compose',
  problems: string[],
): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(url);
  await page
    .getByRole('navigation', { name: 'Atelier' })
    .getByRole('link', { name: screen })
    .click();
  await eventually(() => page.getByRole('status').filter({ hasText: 'Connecting…' }).count()).toBe(
    0,
  );
  return page;
}

/** Resolves once no request but the event stream has been in flight for a second. */
async function settled(page: Page): Promise<void> {
  let inFlight = 0;
  let last = Date.now();
  const counted = (request: { url(): string }) =>
    !new URL(request.url()).pathname.startsWith('/api/events');
  const step = (by: number) => (request: { url(): string }) => {
    if (!counted(request)) return;
    inFlight += by;
    last = Date.now();
  };
  const start = step(1);
  const end = step(-1);
  page.on('request', start);
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  try {
    await eventually(() => inFlight <= 0 && Date.now() - last > 1000).toBe(true);
  } finally {
    page.off('request', start);
    page.off('requestfinished', end);
    page.off('requestfailed', end);
  }
}

/** Milliseconds from now until `check` holds (polled every 25 ms, up to `limit`). */
async function timeUntil(check: () => Promise<boolean>, limit = 30_000): Promise<number> {
  const start = Date.now();
  while (!(await check().catch(() => false))) {
    if (Date.now() - start > limit) throw new Error(`not within ${limit} ms`);
    await new Promise((wait) => setTimeout(wait, 25));
  }
  return Date.now() - start;
}

describe('a window against a gateway whose downloads always fail', () => {
  let gateway: GatewayProcess;
  let ui: RunningUi;
  beforeAll(async () => {
    gateway = await startGatewayProcess(['--latency-ms', '20', '--faults', 'url-500:1']);
    ui = await startUiAgainst(gateway, path.join(dir, 'fail-data'), path.join(dir, 'fail-lib'));
  }, 60_000);
  afterAll(async () => {
    await ui?.stop();
    await gateway?.stop();
  });

  it('shows the failure in the open Queue and Gallery within a second: its group and a toast', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    const queue = await open(context, await ui.newAddress(), 'Queue', problems);
    const gallery = await open(context, await ui.newAddress(), 'Gallery', problems);
    const batch = await call<Batch>(queue, 'batches', 'create', {
      name: 'harbour lights',
      source: {
        kind: 'rows',
        rows: [{ prompt: 'a harbour at night' }, { prompt: 'a harbour at dawn' }],
      },
      defaults: { model: 'flux-schnell', size: '256x256', response_format: 'url' },
    });
    const card = queue.getByRole('listitem', { name: 'harbour lights' });
    await eventually(() => card.isVisible()).toBe(true);
    await queue.getByRole('button', { name: 'Show jobs of harbour lights' }).click();
    // the gallery shows every download, waiting or not
    await gallery.getByRole('combobox', { name: 'Show' }).selectOption('all');
    await eventually(() => gallery.getByRole('gridcell').count()).toBe(2);
    expect(await gallery.getByRole('gridcell', { name: /download failed/ }).count()).toBe(0);

    // the service retries each download a few times before it calls it failed: wait for that
    await eventually(() =>
      call<Batch>(queue, 'batches', 'get', { id: batch.id }).then((b) => b.downloads['failed']),
    ).toBe(2);
    const queueShows = timeUntil(async () => {
      const text = (await card.textContent()) ?? '';
      const group = queue.getByRole('listitem', { name: 'Download failed' });
      // and each job's row, open below: its prompt succeeded, its file is not saved
      const rows = queue.getByRole('listbox', { name: 'Jobs' }).getByRole('option');
      const marked = rows.filter({ hasText: 'download failed' });
      return (
        text.includes('Finished with failures') &&
        (await group.isVisible()) &&
        (await marked.count()) === 2
      );
    });
    const toastShows = timeUntil(() =>
      queue.getByText('Batch “harbour lights” finished').isVisible(),
    );
    const galleryShows = timeUntil(
      async () => (await gallery.getByRole('gridcell', { name: /download failed/ }).count()) === 2,
    );
    const [inQueue, toast, inGallery] = await Promise.all([queueShows, toastShows, galleryShows]);
    // (measured from when this test saw the service say so, itself a poll: an upper bound)
    expect(inQueue).toBeLessThan(1000);
    expect(toast).toBeLessThan(1000);
    expect(inGallery).toBeLessThan(1000);
    expect(await card.textContent()).toContain('2 downloads failed');
    expect(await queue.getByText('2 downloads failed').first().isVisible()).toBe(true);
    expect(await queue.getByText('2 generated, 2 downloads failed').isVisible()).toBe(true);
    await screenshots(queue, 'live-download-failed-queue');
    await screenshots(gallery, 'live-download-failed-gallery');

    // retried, it leaves the failed view while it waits, and comes back when it fails again
    await gallery.getByRole('combobox', { name: 'Show' }).selectOption('failed');
    await eventually(() => gallery.getByRole('gridcell').count()).toBe(2);
    const tile = gallery.getByRole('gridcell').first();
    await tile.getByRole('button', { name: 'Retry download' }).click();
    await eventually(() => gallery.getByRole('gridcell').count()).toBe(1);
    await eventually(() => gallery.getByRole('gridcell').count()).toBe(2);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('windows on one data folder', () => {
  let ui: RunningUi;
  let other: RunningUi;
  beforeAll(async () => {
    const args = ['--demo', '--no-open', '--data', path.join(dir, 'shared-data')];
    ui = await startUi([...args, '--out', path.join(dir, 'shared-lib')]);
    // a second `atelier ui` on the same data folder: another process, as a person may start
    other = await startUi([...args, '--out', path.join(dir, 'shared-lib')]);
  }, 60_000);
  afterAll(async () => {
    await other?.stop();
    await ui?.stop();
  });

  it('shows a batch renamed in another tab and moved by another process within 3 s', async () => {
    const context = await browser.newContext({ viewport: { width: 1180, height: 860 } });
    const problems: string[] = [];
    const page = await open(context, await ui.newAddress(), 'Queue', problems);
    // held: both stay in the run order while they are renamed and moved
    for (const name of ['first light', 'second light']) {
      await call(page, 'batches', 'create', {
        name,
        paused: true,
        source: { kind: 'rows', rows: [{ prompt: `${name}, a study` }] },
        defaults: { model: 'flux-schnell', size: '256x256' },
      });
    }
    const runOrder = () =>
      page
        .getByRole('list', { name: 'Batches in run order' })
        .getByRole('listitem')
        .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
    await eventually(runOrder).toEqual(['first light', 'second light']);

    const tab = await open(context, await ui.newAddress(), 'Compose', problems);
    const [first, second] = await call<{ items: Batch[] }>(tab, 'batches', 'list', {}).then(
      (page) => [...page.items].sort((a, b) => a.id - b.id),
    );
    await call(tab, 'batches', 'rename', { id: first!.id, name: 'first light, renamed' });
    const renamed = await timeUntil(async () =>
      (await runOrder()).includes('first light, renamed'),
    );
    expect(renamed).toBeLessThan(3000);

    const elsewhere = await (await browser.newContext()).newPage();
    await elsewhere.goto(await other.newAddress());
    // (the page trades its address's code for a session before it shows the app)
    await elsewhere.getByRole('navigation', { name: 'Atelier' }).waitFor();
    await call(elsewhere, 'batches', 'move', { id: second!.id, position: 'front' });
    const moved = await timeUntil(async () => (await runOrder())[0] === 'second light');
    expect(moved).toBeLessThan(3000);
    await elsewhere.context().close();
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('asks for nothing while nothing changes: an idle Queue and Gallery, 10 s', async () => {
    const context = await browser.newContext({ viewport: { width: 1180, height: 860 } });
    const problems: string[] = [];
    const queue = await open(context, await ui.newAddress(), 'Queue', problems);
    await queue
      .getByRole('button', { name: /^Show jobs of/ })
      .first()
      .click();
    await eventually(() =>
      queue.getByRole('listbox', { name: 'Jobs' }).getByRole('option').count(),
    ).toBeGreaterThan(0);
    const gallery = await open(context, await ui.newAddress(), 'Gallery', problems);
    await eventually(() => gallery.getByRole('heading', { name: 'Gallery' }).isVisible()).toBe(
      true,
    );
    // let the first loads end, then listen (the event stream is one request that never ends)
    await settled(queue);
    await settled(gallery);
    const asked: string[] = [];
    for (const page of [queue, gallery]) page.on('request', (r) => asked.push(r.url()));
    await new Promise((wait) => setTimeout(wait, 10_000));
    expect(asked).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('runs twelve prompts pasted into a fresh Compose without touching anything else', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    const page = await open(context, await ui.newAddress(), 'Compose', problems);
    const prompts = Array.from({ length: 12 }, (_, i) => `a lantern in the rain, study ${i + 1}`);
    await page.getByRole('textbox', { name: 'Prompts or templates' }).fill(prompts.join('\n'));
    await eventually(() => page.getByLabel('Job count').textContent()).toBe('12 jobs · 12 images');
    expect(await page.getByLabel('Estimated total').isVisible()).toBe(true);
    await screenshots(page, 'live-compose-fresh');
    await eventually(() => page.getByRole('button', { name: /^Run Ctrl/ }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: /^Run Ctrl/ }).click();
    await eventually(() => page.getByText(/queued: 12 jobs/).isVisible()).toBe(true);
    const newest = await call<{ items: Batch[] }>(page, 'batches', 'list', {}).then(
      (list) => list.items[0]!,
    );
    await eventually(() =>
      call<Batch>(page, 'batches', 'get', { id: newest.id }).then((b) => b.jobs['succeeded']),
    ).toBe(12);
    // the draft is kept: a reload (a restart too: the service keeps it) shows it again
    await page.reload();
    await eventually(() =>
      page.getByRole('textbox', { name: 'Prompts or templates' }).inputValue(),
    ).toBe(prompts.join('\n'));
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
