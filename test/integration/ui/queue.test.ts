import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, startUi, startUiAgainst, type RunningUi } from '../../support/atelier-ui.ts';
import { launchChromium } from '../../support/browser.ts';
import { startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.ts';
import { call, eventually, screenshots } from '../../support/page-helpers.ts';

let dir: string;
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-queue-'));
  browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

function rows(count: number, what: string) {
  return Array.from({ length: count }, (_, i) => ({ prompt: `${what}, study ${i + 1}` }));
}

async function openQueue(page: Page, url: string, problems: string[]): Promise<void> {
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(url);
  await page
    .getByRole('navigation', { name: 'Atelier' })
    .getByRole('link', { name: 'Queue' })
    .click();
  await eventually(() =>
    page.getByRole('heading', { name: 'Queue', exact: true }).isVisible(),
  ).toBe(true);
}

interface BatchCounts {
  jobCount: number;
  jobs: Record<string, number>;
  downloads: Record<string, number>;
  failures: Record<string, number>;
}

describe('the queue screen against atelier ui --demo', () => {
  let ui: RunningUi;
  beforeAll(async () => {
    ui = await startUi([
      '--demo',
      '--no-open',
      '--data',
      path.join(dir, 'demo-data'),
      '--out',
      path.join(dir, 'demo-library'),
    ]);
  }, 60_000);
  afterAll(async () => {
    await ui?.stop();
  });

  it('teaches when empty; pauses and resumes the queue; cancels a batch after asking', async () => {
    const context = await browser.newContext({ viewport: { width: 1180, height: 860 } });
    const page = await context.newPage();
    const problems: string[] = [];
    await openQueue(page, await ui.newAddress(), problems);
    await eventually(() => page.getByRole('link', { name: 'Compose a batch' }).isVisible()).toBe(
      true,
    );

    // one request at a time, so the batch is still running when the queue pauses
    const concurrency = page.getByRole('spinbutton', { name: 'Concurrency' });
    await concurrency.fill('1');
    await concurrency.press('Enter');
    await eventually(() =>
      call<{ limits: { concurrency: number } }>(page, 'queue', 'state', {}).then(
        (q) => q.limits.concurrency,
      ),
    ).toBe(1);

    await call(page, 'batches', 'create', {
      name: 'lighthouses',
      source: { kind: 'rows', rows: rows(40, 'a lighthouse at dusk') },
      defaults: { model: 'flux-schnell', size: '256x256' },
    });
    const running = page.getByRole('listitem', { name: 'lighthouses' });
    await eventually(() => running.isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Pause queue' }).click();
    const banner = page.getByRole('region', { name: 'Queue paused' });
    await eventually(() => banner.textContent()).toContain('You paused the queue');
    await eventually(() =>
      page.getByRole('status', { name: 'Queue status' }).textContent(),
    ).toContain('Paused');
    // nothing new starts while paused: once the request in flight ends, the counts hold still
    await eventually(() =>
      call<BatchCounts>(page, 'batches', 'get', { id: 1 }).then((b) => b.jobs['running']),
    ).toBe(0);
    const held = await call<BatchCounts>(page, 'batches', 'get', { id: 1 });
    await page.waitForTimeout(600);
    const later = await call<BatchCounts>(page, 'batches', 'get', { id: 1 });
    expect(later.jobs['succeeded']).toBe(held.jobs['succeeded']);
    expect(later.jobs['queued']).toBeGreaterThan(0);

    await call(page, 'batches', 'create', {
      name: 'orchards',
      source: { kind: 'rows', rows: rows(12, 'an orchard in fog') },
      defaults: { model: 'flux-schnell', size: '256x256' },
    });
    const orchards = page.getByRole('listitem', { name: 'orchards' });
    await eventually(() => orchards.isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Show jobs of lighthouses' }).click();
    await eventually(() =>
      page.getByRole('listbox', { name: 'Jobs' }).getByRole('option').count(),
    ).toBeGreaterThan(5);
    await screenshots(page, 'queue-paused');

    await banner.getByRole('button', { name: 'Resume', exact: true }).click();
    await eventually(() => banner.isVisible()).toBe(false);
    await eventually(() =>
      page.getByRole('status', { name: 'Queue status' }).textContent(),
    ).toContain('Running');
    await screenshots(page, 'queue-running');
    await page.setViewportSize({ width: 760, height: 900 });
    await screenshots(page, 'queue-narrow');
    await page.setViewportSize({ width: 1180, height: 860 });

    // reorder: a button moves a batch up; the keyboard drags it (space, arrow, space)
    const runOrder = () =>
      page
        .getByRole('list', { name: 'Batches in run order' })
        .getByRole('listitem')
        .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
    expect(await runOrder()).toEqual(['lighthouses', 'orchards']);
    await page.getByRole('button', { name: 'Move orchards up' }).click();
    await eventually(runOrder).toEqual(['orchards', 'lighthouses']);
    const handle = page.getByRole('button', { name: /^Reorder lighthouses/ });
    await handle.focus();
    await page.keyboard.press('Space');
    await eventually(() => handle.getAttribute('aria-pressed')).toBe('true'); // picked up
    // the sensor listens for arrows a moment after the pick-up: press until it has moved (the
    // first batch has nothing above it, so a second press changes nothing)
    await eventually(async () => {
      await page.keyboard.press('ArrowUp');
      return page.getByText('lighthouses is over orchards.').count();
    }).toBeGreaterThan(0);
    await page.keyboard.press('Space');
    await eventually(runOrder).toEqual(['lighthouses', 'orchards']);

    await orchards.getByRole('button', { name: 'Cancel orchards' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel “orchards”?' });
    await eventually(() => dialog.textContent()).toContain('unfinished job');
    await dialog.getByRole('button', { name: 'Cancel batch' }).click();
    await eventually(() =>
      call<BatchCounts>(page, 'batches', 'get', { id: 2 }).then((b) => b.jobs['canceled']),
    ).toBeGreaterThan(0);
    const canceled = await call<BatchCounts>(page, 'batches', 'get', { id: 2 });
    expect(canceled.jobs['canceled']! + canceled.jobs['succeeded']!).toBe(12);
    await eventually(() => orchards.getByRole('img').first().getAttribute('aria-label')).toContain(
      `${canceled.jobs['canceled']} canceled`,
    );

    // the first batch runs to the end
    await concurrency.fill('8');
    await concurrency.press('Enter');
    await eventually(() => running.textContent()).toContain('40 / 40');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('the queue screen against a gateway with faults', () => {
  let gateway: GatewayProcess;
  let ui: RunningUi;
  beforeAll(async () => {
    // the 3rd and 7th generations time out after being charged; two image links answer 404
    gateway = await startGatewayProcess([
      '--latency-ms',
      '20',
      '--faults',
      '504@3+7,url-404@2+5',
      '--seed',
      '7',
    ]);
    ui = await startUiAgainst(
      gateway,
      path.join(dir, 'faults-data'),
      path.join(dir, 'faults-library'),
    );
  }, 60_000);
  afterAll(async () => {
    await ui?.stop();
    await gateway?.stop();
  });

  it('groups failures; retries downloads without generating; retries uncertain jobs after a warning', async () => {
    const context = await browser.newContext({ viewport: { width: 1180, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    await openQueue(page, await ui.newAddress(), problems);
    await call(page, 'batches', 'create', {
      name: 'tidal pools',
      source: { kind: 'rows', rows: rows(20, 'tidal pools under a low sun') },
      defaults: { model: 'flux-schnell', size: '256x256', response_format: 'url' },
    });
    const batch = page.getByRole('listitem', { name: 'tidal pools' });
    await eventually(() => batch.textContent()).toContain('Finished');
    const settled = await call<BatchCounts & { expiredLinks: number; requests: number }>(
      page,
      'batches',
      'get',
      {
        id: 1,
      },
    );
    expect(settled.failures['uncertain']).toBe(2);
    expect(settled.downloads['failed']).toBe(2);
    expect(settled.requests).toBe(20);

    await batch.getByRole('button', { name: 'Show jobs of tidal pools' }).click();
    const failures = page.getByRole('region', { name: 'What failed' });
    const uncertain = failures.getByRole('listitem', { name: 'Outcome uncertain' });
    await eventually(() => uncertain.textContent()).toContain('2');
    const expired = failures.getByRole('listitem', { name: 'Link expired' });
    await eventually(() => expired.textContent()).toContain('2');
    await page.getByRole('button', { name: /^Failed/ }).click();
    await eventually(() =>
      page.getByRole('listbox', { name: 'Jobs' }).getByRole('option').count(),
    ).toBe(2);
    await page.getByRole('listbox', { name: 'Jobs' }).getByRole('option').first().click();
    const details = page.getByRole('complementary', { name: 'Job details' });
    await eventually(() => details.textContent()).toContain('Request id');
    // the queue's codes in a person's words: the failure kind, each request's outcome, counts
    expect(await details.locator('.chip-failed').allTextContents()).toEqual([
      'failed',
      'may have been charged',
    ]);
    await eventually(() => details.getByRole('listitem').first().textContent()).toContain(
      'No answer: it may have been done and charged',
    );
    expect(await details.textContent()).toMatch(/\d+ requests? sent/);
    expect(await details.getByRole('button', { name: /^Copy request id/ }).count()).toBeGreaterThan(
      0,
    );
    await screenshots(page, 'queue-failures');
    await details.getByRole('button', { name: 'Close job details' }).click();
    await page.getByRole('button', { name: /^All/ }).click();
    await screenshots(page, 'queue-failures-list');

    // a failed download's tile says the truth: the picture was made, and billed
    await page
      .getByRole('navigation', { name: 'Atelier' })
      .getByRole('link', { name: 'Gallery' })
      .click();
    await page.getByRole('combobox', { name: 'Show' }).selectOption({ label: 'Link expired' });
    await eventually(() => page.locator('.tile-failed').count()).toBe(2);
    expect(await page.locator('.tile-failed').first().textContent()).toContain(
      'was made and may have been charged',
    );
    expect(await page.locator('.tile-failed').first().textContent()).not.toContain(
      'Nothing was charged',
    );
    await page
      .getByRole('navigation', { name: 'Atelier' })
      .getByRole('link', { name: 'Queue' })
      .click();

    const generations = (await gateway.ledger()).length;
    expect(generations).toBe(20); // the two uncertain ones were charged too
    await expired.getByRole('button', { name: 'Retry downloads' }).click();
    await eventually(() =>
      call<BatchCounts>(page, 'batches', 'get', { id: 1 }).then((b) => b.downloads['done']),
    ).toBe(18); // every image of the 18 jobs that succeeded, the two retried included
    expect(await gateway.ledger()).toHaveLength(generations); // no new generation
    await eventually(() => expired.isVisible()).toBe(false);

    await uncertain.getByRole('button', { name: 'Retry anyway…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Retry 2 uncertain jobs anyway?' });
    await eventually(() => dialog.textContent()).toContain('may have finished and been charged');
    await dialog.getByRole('button', { name: 'Retry anyway' }).click();
    await eventually(() =>
      call<BatchCounts>(page, 'batches', 'get', { id: 1 }).then((b) => b.jobs['succeeded']),
    ).toBe(20);
    expect(await gateway.ledger()).toHaveLength(generations + 2);
    await eventually(() => batch.textContent()).toContain('20 images');
    await eventually(() => batch.textContent()).toContain('22 requests sent');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
