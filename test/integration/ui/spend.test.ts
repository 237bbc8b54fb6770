import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SCREENSHOTS,
  startDemoUi,
  startUiAgainst,
  type RunningUi,
} from '../../support/atelier-ui.ts';
import { startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.ts';
import { call, eventually, screenshots } from '../../support/page-helpers.ts';

/** Ten letters four times: 10,000 prompts. */
const TEN_THOUSAND = Array.from({ length: 4 }, () => '{a|b|c|d|e|f|g|h|i|j}').join(' ');

let ui: RunningUi;
let browser: Browser;
let stop: () => Promise<void>;
let demoDir: string;

beforeAll(async () => {
  ({ ui, browser, stop, dir: demoDir } = await startDemoUi('spend'));
}, 120_000);

afterAll(async () => {
  await stop?.();
});

interface Listed {
  items: Array<{ id: number; name: string; jobCount: number }>;
}
const batches = (page: Page) =>
  call<Listed>(page, 'batches', 'list', {}).then((list) => list.items);

/** 10,000 jobs of gpt-image-1 (4,000 quota units an image, its list price): 40,000,000 units. */
async function composeTenThousand(page: Page): Promise<void> {
  await page.getByRole('textbox', { name: 'Prompts or templates' }).fill(TEN_THOUSAND);
  const models = page.getByRole('group', { name: 'Models' }).getByRole('checkbox');
  await eventually(() => models.count()).toBeGreaterThan(0);
  // the one wanted first: a window left with no model is given one (useStartingModel)
  const wanted = page.getByRole('checkbox', { name: 'gpt-image-1', exact: true });
  await wanted.check();
  for (const box of await models.all()) {
    if (
      (await box.isChecked()) &&
      !(await box.evaluate((el, w) => el === w, await wanted.elementHandle()))
    ) {
      await box.uncheck();
    }
  }
  await page.getByRole('textbox', { name: /^Images each/ }).fill('');
  await page.getByRole('textbox', { name: 'Sizes' }).fill('1024x1024');
  await page.getByRole('textbox', { name: 'Batch name' }).fill('ten thousand');
  await eventually(() => page.getByLabel('Job count').textContent()).toBe(
    '10,000 jobs · 10,000 images',
  );
  await eventually(() => page.getByRole('button', { name: /^Run Ctrl/ }).isEnabled()).toBe(true);
}

describe('spend under control in atelier ui --demo', () => {
  it('a 10,000-job batch over the threshold starts only once the person confirms what it spends', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(await ui.newAddress());
    await eventually(() =>
      page.getByRole('checkbox', { name: 'gpt-image-1', exact: true }).isVisible(),
    ).toBe(true);
    await call(page, 'settings', 'update', { currency: { code: 'USD', perUnit: 0.000002 } });
    await composeTenThousand(page);
    const prompts = page.getByRole('textbox', { name: 'Prompts or templates' });

    // Ctrl+Shift+P pauses the queue from inside a text field, where a person composing is
    await prompts.press('Control+Shift+P');
    await eventually(() =>
      call<{ paused: { kind: string } | null }>(page, 'queue', 'state', {}).then(
        (q) => q.paused?.kind ?? null,
      ),
    ).toBe('manual');

    // Ctrl+Enter asks first: what it spends, in units and money, and how many requests
    await prompts.press('Control+Enter');
    const dialog = page.getByRole('dialog', { name: 'Spend about $80.00?' });
    await eventually(() => dialog.isVisible()).toBe(true);
    const facts = dialog.getByRole('definition');
    expect(await facts.allTextContents()).toEqual([
      '10,000',
      '10,000',
      '40,000,000 quota units (≈ $80.00)',
    ]);
    expect(await dialog.textContent()).toContain('more than 500,000 quota units and 500 requests');
    // in demo mode it says that nothing is charged: the figures are a real gateway's
    expect(await dialog.getByRole('note').textContent()).toMatch(
      /^Demo mode: .*nothing is charged/,
    );
    // nothing is being sent while the question is open, and the Run bar (hidden from the
    // accessibility tree behind the modal) says so
    expect(await page.locator('#run-blockers').textContent()).toBe(
      'Waiting for your answer about the spend…',
    );
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'spend-confirm-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'spend-confirm-dark.png') });
    await page.setViewportSize({ width: 420, height: 800 });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'spend-confirm-narrow.png') });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });

    // declined: nothing is queued
    await dialog.getByRole('button', { name: 'Not now' }).click();
    await eventually(() => dialog.isVisible()).toBe(false);
    expect(await batches(page)).toEqual([]);
    // nor can any other way start it unasked: the service refuses without the confirmation
    await expect(
      call(page, 'batches', 'create', {
        source: {
          kind: 'rows',
          rows: Array.from({ length: 600 }, (_, i) => ({ prompt: `p${i}` })),
        },
        defaults: { model: 'gpt-image-1', size: '1024x1024' },
      }),
    ).rejects.toThrow(/confirmation-required/);
    expect(await batches(page)).toEqual([]);

    // confirmed: the 10,000 jobs are queued
    await page.getByRole('button', { name: /^Run Ctrl/ }).click();
    await eventually(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Run and spend $80.00' }).click();
    await eventually(() =>
      page.getByText('Batch “ten thousand” queued: 10,000 jobs').isVisible(),
    ).toBe(true);
    const [queued] = await batches(page);
    expect(queued).toMatchObject({ name: 'ten thousand', jobCount: 10_000 });
    await call(page, 'batches', 'cancel', { id: queued!.id });

    // and Ctrl+Shift+P from the text field resumes
    await prompts.press('Control+Shift+P');
    await eventually(() =>
      call<{ paused: unknown }>(page, 'queue', 'state', {}).then((q) => q.paused),
    ).toBe(null);
    // (the one refusal asked for on purpose above)
    expect(problems.filter((p) => !p.includes('status of 422'))).toEqual([]);
    await context.close();
  }, 180_000);
});

describe('a prompt file with bad rows in Compose', () => {
  it('words every bad row in the window, and runs the valid rows when asked', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(await ui.newAddress());
    await eventually(() =>
      page.getByRole('checkbox', { name: 'flux-schnell', exact: true }).isVisible(),
    ).toBe(true);
    const models = page.getByRole('group', { name: 'Models' }).getByRole('checkbox');
    // the one wanted first: a window left with no model is given one (useStartingModel)
    const wanted = page.getByRole('checkbox', { name: 'flux-schnell', exact: true });
    await wanted.check();
    for (const box of await models.all()) {
      if (
        (await box.isChecked()) &&
        !(await box.evaluate((el, w) => el === w, await wanted.elementHandle()))
      ) {
        await box.uncheck();
      }
    }
    await page.getByRole('textbox', { name: 'Sizes' }).fill('256x256');
    await page.getByRole('textbox', { name: 'Batch name' }).fill('valid rows');

    // a picture renamed .txt: not a text file (not "save it as UTF-8")
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    await page.getByLabel('Prompt file').setInputFiles({
      name: 'prompts.txt',
      mimeType: 'text/plain',
      buffer: Buffer.concat([png, Buffer.alloc(64)]),
    });
    const listed = page.getByRole('list', { name: 'Problems' });
    await eventually(() => listed.textContent()).toContain('prompts.txt is not a text file');
    expect(await listed.textContent()).not.toContain('UTF-8');

    // row 3 too long, row 4 a quote never closed: each listed, and rows 2 and 5 valid
    const long = 'a lighthouse '.repeat(3000);
    await page.getByRole('button', { name: 'Remove the file' }).click();
    const csv = `prompt\na fox\n${long}\n"an owl\na hare\n`;
    await page.getByLabel('Prompt file').setInputFiles({
      name: 'animals.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await eventually(() => listed.getByRole('listitem').allTextContents()).toEqual([
      'Line 3: The prompt is longer than 32,000 characters, the most Atelier sends: shorten it.',
      expect.stringMatching(/^Line 4: A quoted field opens here and is never closed/),
    ]);
    expect(await listed.textContent()).not.toContain('--max-prompt-chars');
    expect(await page.locator('#run-blockers').textContent()).not.toContain('holds no prompt');
    await page.getByRole('button', { name: 'Run the 2 valid rows' }).click();
    await eventually(() => page.getByText('Batch “valid rows” queued: 2 jobs').isVisible()).toBe(
      true,
    );
    const [batch] = await batches(page);
    expect(batch).toMatchObject({ name: 'valid rows', jobCount: 2 });
    await context.close();
  }, 120_000);
});

describe('moving the library in atelier ui --demo', () => {
  it('moves the files to a new, empty folder with its progress, and the library follows', async () => {
    const context = await browser.newContext({ viewport: { width: 1180, height: 900 } });
    const page = await context.newPage();
    await page.goto(await ui.newAddress());
    await eventually(() =>
      page.getByRole('checkbox', { name: 'flux-schnell', exact: true }).isVisible(),
    ).toBe(true);
    await call(page, 'batches', 'create', {
      name: 'to move',
      source: { kind: 'rows', rows: [{ prompt: 'a moth' }, { prompt: 'a kite' }] },
      defaults: { model: 'flux-schnell', size: '256x256' },
    });
    await eventually(() =>
      call<{ total: number }>(page, 'images', 'count', {}).then((c) => c.total),
    ).toBeGreaterThanOrEqual(2);
    await page
      .getByRole('navigation', { name: 'Atelier' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await page.getByRole('tab', { name: 'Library' }).click();
    const to = path.join(demoDir, 'moved-library');
    const form = page.getByRole('form', { name: 'Move the library' });
    await form.getByRole('textbox', { name: 'New, empty folder' }).fill(to);
    await form.getByRole('button', { name: 'Move the files there' }).click();
    const status = form.getByRole('status', { name: 'Library move' });
    await eventually(() => status.textContent()).toMatch(
      new RegExp(`^Moved \\d+ files to ${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
    await eventually(() =>
      call<{ libraryDir: string }>(page, 'library', 'info', {}).then((i) => i.libraryDir),
    ).toBe(to);
    await context.close();
  }, 120_000);
});

/** flux-schnell: 300 quota units an image, in the catalogue and on the simulator's ledger. */
const PRICE = 300;

describe('a budget cap against the simulator', () => {
  let gateway: GatewayProcess;
  let capped: RunningUi;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'atelier-budget-'));
    // it also lists a text model Atelier's catalogue has no entry for (the last test adds it)
    gateway = await startGatewayProcess(['--latency-ms', '20', '--text-models', 'glm-4-air']);
    capped = await startUiAgainst(gateway, path.join(dir, 'data'), path.join(dir, 'library'));
  }, 60_000);
  afterAll(async () => {
    await capped?.stop();
    await gateway?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const charged = async () =>
    ((await gateway.ledger()) as unknown as Array<{ charged: number }>).reduce(
      (sum, entry) => sum + entry.charged,
      0,
    );

  it('pauses the queue before the request that would pass it; raise the cap, or run anyway', async () => {
    const context = await browser.newContext({ viewport: { width: 1180, height: 860 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(await capped.newAddress('/queue'));
    await eventually(() =>
      page.getByRole('heading', { name: 'Queue', exact: true }).isVisible(),
    ).toBe(true);
    await call(page, 'settings', 'update', { currency: { code: 'USD', perUnit: 0.000002 } });
    // the cap, set in Settings › Spending as a person does
    await page
      .getByRole('navigation', { name: 'Atelier' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await page.getByRole('tab', { name: 'Spending' }).click();
    const caps = page.getByRole('form', { name: 'Spending caps' });
    await caps.getByRole('textbox', { name: 'Per batch' }).fill('3,100');
    await eventually(() =>
      caps.getByText('About 3,100 quota units (≈ $0.0062). Empty: no cap.').isVisible(),
    ).toBe(true);
    await caps.getByRole('button', { name: 'Save caps' }).click();
    await eventually(() =>
      call<{ budget: unknown }>(page, 'settings', 'get', {}).then((s) => s.budget),
    ).toEqual({ perBatch: 10 * PRICE + 100, perDay: null, perGatewayDay: {} });
    // and when to ask: over 1,000,000 units or 2,000 requests
    const ask = page.getByRole('form', { name: 'Ask before spending' });
    await ask.getByRole('textbox', { name: 'More than, in quota units' }).fill('1,000,000');
    await ask.getByRole('textbox', { name: 'More than, in requests' }).fill('2000');
    await ask.getByRole('button', { name: 'Save' }).click();
    await eventually(() =>
      call<{ confirmSpend: unknown }>(page, 'settings', 'get', {}).then((s) => s.confirmSpend),
    ).toEqual({ units: 1_000_000, requests: 2000 });
    await page
      .getByRole('navigation', { name: 'Atelier' })
      .getByRole('link', { name: 'Queue' })
      .click();
    await call(page, 'batches', 'create', {
      name: 'capped',
      source: {
        kind: 'rows',
        rows: Array.from({ length: 30 }, (_, i) => ({ prompt: `a lantern, study ${i + 1}` })),
      },
      defaults: { model: 'flux-schnell', size: '256x256' },
    });

    const banner = page.getByRole('region', { name: 'Queue paused' });
    await eventually(() => banner.textContent()).toContain(
      'Paused: the next request would pass the cap of the batch "capped".',
    );
    const budget = banner.getByRole('definition');
    await eventually(() => budget.allTextContents()).toEqual([
      '3,000 quota units (≈ $0.006)',
      '3,100 quota units (≈ $0.0062)',
      'about 300 quota units (≈ $0.0006)',
    ]);
    // the simulator's ledger: nothing charged past the cap (the last answers may still be on
    // their way when the banner shows, as the spend is counted when a request is sent)
    await eventually(charged).toBe(10 * PRICE);
    await screenshots(page, 'budget-pause');
    expect(await charged()).toBe(10 * PRICE);

    // raise the cap: saved in Settings, and the queue resumes until the new one
    await banner.getByRole('button', { name: 'Raise the cap' }).click();
    const field = banner.getByRole('textbox', { name: 'New cap, in quota units' });
    await field.fill('3000');
    expect(await banner.getByRole('alert').textContent()).toBe(
      'The next request needs a cap of at least 3,300 quota units.',
    );
    expect(await banner.getByRole('button', { name: 'Save and resume' }).isDisabled()).toBe(true);
    await field.fill('6,100');
    await page.setViewportSize({ width: 420, height: 860 });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'budget-pause-narrow.png') });
    await page.setViewportSize({ width: 1180, height: 860 });
    await banner.getByRole('button', { name: 'Save and resume' }).click();
    await eventually(() =>
      call<{ budget: { perBatch: number } }>(page, 'settings', 'get', {}).then(
        (s) => s.budget.perBatch,
      ),
    ).toBe(6100);
    await eventually(() => budget.first().textContent()).toBe('6,000 quota units (≈ $0.012)');
    expect(await charged()).toBe(20 * PRICE);

    // run anyway: past this batch's cap, to the end
    await banner.getByRole('button', { name: 'Run anyway' }).click();
    await eventually(() => banner.isVisible()).toBe(false);
    const row = page.getByRole('listitem', { name: 'capped' });
    await eventually(() => row.textContent()).toContain('Finished');
    expect(await charged()).toBe(30 * PRICE);
    // what it spent, on its row
    await eventually(() => row.textContent()).toContain('spent 9,000 quota units (≈ $0.018)');

    // Settings › Spending: today, and by model
    await page
      .getByRole('navigation', { name: 'Atelier' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await page.getByRole('tab', { name: 'Spending' }).click();
    const byModel = page.getByRole('table', { name: 'Spent by model' });
    await eventually(() => byModel.getByRole('row', { name: /flux-schnell/ }).textContent()).toBe(
      'flux-schnell309,000 quota units (≈ $0.018)',
    );
    await eventually(() =>
      page
        .getByRole('table', { name: 'Spent by day' })
        .getByRole('row', { name: /Today/ })
        .textContent(),
    ).toBe('Today309,000 quota units (≈ $0.018)');
    await screenshots(page, 'settings-spending');
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);

  it('says beforehand that ATELIER_API_KEY decides the key, and adds the models the gateway lists', async () => {
    const context = await browser.newContext({ viewport: { width: 1180, height: 900 } });
    const page = await context.newPage();
    await page.goto(await capped.newAddress());
    await page
      .getByRole('navigation', { name: 'Atelier' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await page.getByRole('tab', { name: 'Gateway & key' }).click();
    // before any click: the controls say the environment decides, and are off
    await eventually(() => page.getByRole('note').textContent()).toContain('ATELIER_API_KEY');
    expect(await page.getByLabel('Replace the key').isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Test connection' }).click();
    const form = page.getByRole('form', {
      name: 'Models the gateway lists that Atelier does not know',
    });
    await eventually(() => form.isVisible()).toBe(true);
    const unknown = await form.getByRole('rowheader').allTextContents();
    expect(unknown.length).toBeGreaterThan(0);
    await page.screenshot({
      path: path.join(SCREENSHOTS, 'settings-unknown-models-light.png'),
      fullPage: true,
    });
    for (const id of unknown.slice(1)) await form.getByLabel(`Add ${id}`).uncheck();
    await form.getByLabel(`Kind of ${unknown[0]}`).selectOption('text');
    await form.getByRole('button', { name: 'Add 1 model to the catalogue' }).click();
    await eventually(() =>
      call<{ entries: Array<{ origin: string; entry: { id: string } }> }>(
        page,
        'models',
        'catalogue',
        {},
      ).then((c) => c.entries.filter((e) => e.origin === 'user').map((e) => e.entry.id)),
    ).toEqual([unknown[0]]);
    await context.close();
  }, 120_000);
});
