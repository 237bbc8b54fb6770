import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorProcess } from '../../bench/simulator-process.ts';
import { SCREENSHOTS, startDemoUi, type RunningUi } from '../../support/atelier-ui.ts';

let dir: string;
let keysDir: string;
/** A key no other part of Atelier knows, so any trace of it comes from this test. */
const KEY = `sk-e2e-${randomBytes(12).toString('hex')}`;
let ui: RunningUi;
let simulator: Awaited<ReturnType<typeof startSimulatorProcess>>;
let browser: Browser;
let stop: () => Promise<void>;

beforeAll(async () => {
  keysDir = mkdtempSync(path.join(os.tmpdir(), 'atelier-keys-'));
  writeFileSync(path.join(keysDir, 'keys.json'), JSON.stringify([{ key: KEY, name: 'e2e' }]));
  simulator = await startSimulatorProcess(['--keys', path.join(keysDir, 'keys.json')]);
  ({ dir, ui, browser, stop } = await startDemoUi('settings'));
}, 120_000);

afterAll(async () => {
  await stop?.();
  simulator?.stop();
  rmSync(keysDir, { recursive: true, force: true });
});

/** Everything the page sent and received, as text, with where it went. */
interface Traffic {
  url: string;
  text: string;
}

/** Records every request and response of the page, and every server-sent event it read. */
async function record(context: BrowserContext, page: Page) {
  const requests: Traffic[] = [];
  const responses: Array<Promise<Traffic>> = [];
  page.on('request', (request) => {
    requests.push({
      url: request.url(),
      text: [request.url(), JSON.stringify(request.headers()), request.postData() ?? ''].join('\n'),
    });
  });
  page.on('response', (response) => {
    const head = [response.url(), JSON.stringify(response.headers())].join('\n');
    // an event stream never ends: its messages are read in the page (below)
    const streaming = response.headers()['content-type']?.includes('text/event-stream');
    responses.push(
      streaming
        ? Promise.resolve({ url: response.url(), text: head })
        : response.text().then(
            (body) => ({ url: response.url(), text: `${head}\n${body}` }),
            () => ({ url: response.url(), text: head }),
          ),
    );
  });
  await context.addInitScript(() => {
    const seen: string[] = [];
    (globalThis as unknown as { __events: string[] }).__events = seen;
    // the app reads its event stream with fetch: a copy of the stream's text is kept here
    const original = globalThis.fetch.bind(globalThis);
    globalThis.fetch = async (input, init) => {
      const response = await original(input, init);
      if (!String(input).includes('/api/events') || !response.body) return response;
      const [mine, theirs] = response.body.tee();
      void (async () => {
        const reader = theirs.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          seen.push(value);
        }
      })();
      return new Response(mine, response);
    };
  });
  return {
    requests,
    responses: () => Promise.all(responses),
    events: () => page.evaluate(() => (globalThis as unknown as { __events: string[] }).__events),
  };
}

/** Every file under a folder, as text (binary files too: the key would be plain bytes). */
function filesUnder(folder: string): Array<{ file: string; text: string }> {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(folder, name))
    .filter((file) => statSync(file).isFile())
    .map((file) => ({ file, text: readFileSync(file).toString('latin1') }));
}

describe('Settings in the browser', () => {
  it('sets a gateway and its key; the key never appears in the page, its traffic or storage', async () => {
    const key = simulator.key;
    expect(key).toBe(KEY);
    const context = await browser.newContext({
      colorScheme: 'light',
      viewport: { width: 1100, height: 820 },
    });
    const page = await context.newPage();
    const traffic = await record(context, page);
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    const contents: string[] = [];
    const visit = async (name: string) => {
      await page.getByRole('navigation', { name: 'Atelier' }).getByRole('link', { name }).click();
      await expect.poll(() => page.getByRole('heading', { name, level: 1 }).isVisible()).toBe(true);
      contents.push(await page.content());
    };

    await page.goto(await ui.newAddress());
    await visit('Settings');
    await page.getByRole('button', { name: 'Add gateway' }).click();
    const form = page.getByRole('form', { name: 'New gateway' });
    await form.getByLabel('Name').fill('Simulator');
    await form.getByLabel('Base URL').fill('simulator');
    await expect
      .poll(() => form.getByText('The base URL must start with http:// or https://.').isVisible())
      .toBe(true);
    await form.getByLabel('Base URL').fill(simulator.url);
    await form.getByText('Advanced: the gateway’s own names').click();
    expect(await form.getByLabel('Request-id header').inputValue()).toBe('X-Svc-Request-Id');
    await form.getByRole('button', { name: 'Save gateway' }).click();
    const choice = page.getByRole('radio', { name: /Simulator/ });
    await choice.check();
    await expect.poll(() => page.getByText('The queue now uses Simulator').isVisible()).toBe(true);

    const input = page.getByLabel('Paste the key');
    expect(await input.getAttribute('type')).toBe('password');
    expect(await input.getAttribute('autocomplete')).toBe('off');
    await input.fill(key);
    await page.getByRole('button', { name: 'Save key' }).click();
    const status = page.getByRole('status', { name: 'Key status' });
    await expect
      .poll(() => status.textContent())
      .toBe(`A key is set, ending in …${key.slice(-4)} (in memory only).`);
    await expect.poll(() => page.getByLabel('Replace the key').inputValue()).toBe('');
    await expect
      .poll(() => page.locator('.status-gateway').textContent(), { timeout: 15_000 })
      .toBe('Simulator');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const test = page.getByRole('status', { name: 'Connection test' });
    await expect
      .poll(() => test.textContent(), { timeout: 15_000 })
      .toMatch(
        /^Connected\. The gateway accepted the key and lists \d+ models(; Atelier has no entry for \d+ of them .*)?\.$/,
      );
    contents.push(await page.content());

    await page.screenshot({ path: path.join(SCREENSHOTS, 'settings-gateway-light.png') });
    for (const section of ['Models & prices', 'Queue', 'Library', 'General']) {
      await page.getByRole('tab', { name: section }).click();
      await expect
        .poll(() => page.getByRole('tab', { name: section }).getAttribute('aria-selected'))
        .toBe('true');
      contents.push(await page.content());
    }
    await page.getByRole('tab', { name: 'Library' }).click();
    await expect
      .poll(() => page.locator('.template-form .example').textContent())
      .toMatch(/\.png$/);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'settings-library-light.png') });
    for (const screen of ['Compose', 'Queue', 'Gallery', 'Settings']) await visit(screen);

    // the one request that carries the key is the one that gives it to the service
    const carrying = traffic.requests.filter((r) => r.text.includes(key));
    expect(carrying.map((r) => new URL(r.url).pathname)).toEqual(['/api/key/set']);
    const responses = await traffic.responses();
    expect(responses.length).toBeGreaterThan(10);
    expect(responses.filter((r) => r.text.includes(key)).map((r) => r.url)).toEqual([]);
    const events = await traffic.events();
    expect(events.some((e) => e.includes('key.changed'))).toBe(true);
    expect(events.filter((e) => e.includes(key))).toEqual([]);
    expect(contents.filter((html) => html.includes(key))).toEqual([]);
    expect(page.url()).not.toContain(key);
    const storage = await context.storageState();
    expect(JSON.stringify(storage)).not.toContain(key);
    const session = await page.evaluate(() => JSON.stringify({ ...sessionStorage }));
    expect(session).not.toContain(key);

    const settings = readFileSync(path.join(dir, 'data', 'settings.json'), 'utf8');
    expect(JSON.parse(settings)).toMatchObject({
      gateway: { kind: 'remote', profile: 'Simulator' },
      profiles: [{ name: 'Simulator', baseUrl: simulator.url }],
    });
    expect(settings).not.toContain(key);
    expect(
      filesUnder(dir)
        .filter((f) => f.text.includes(key))
        .map((f) => f.file),
    ).toEqual([]);
    expect(ui.stdout() + ui.stderr()).not.toContain(key);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('looks right in dark and in a narrow window', async () => {
    for (const [colorScheme, width] of [
      ['dark', 1100],
      ['light', 760],
    ] as const) {
      const context = await browser.newContext({ colorScheme, viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(await ui.newAddress());
      await page
        .getByRole('navigation', { name: 'Atelier' })
        .getByRole('link', { name: 'Settings' })
        .click();
      await expect
        .poll(() => page.getByRole('status', { name: 'Key status' }).textContent())
        .toContain('A key is set');
      await page.getByRole('button', { name: 'Edit Simulator' }).click();
      await page.getByRole('button', { name: 'Add header' }).click();
      await page.getByLabel('Header 1 name').fill('Authorization');
      const suffix = `${colorScheme}${width < 1000 ? '-narrow' : ''}`;
      await page.screenshot({
        path: path.join(SCREENSHOTS, `settings-gateway-${suffix}.png`),
        fullPage: true,
      });
      await page.getByRole('tab', { name: 'Models & prices' }).click();
      await page.getByRole('button', { name: 'View flux-schnell' }).click();
      await page.screenshot({
        path: path.join(SCREENSHOTS, `settings-models-${suffix}.png`),
        fullPage: true,
      });
      await page.getByRole('button', { name: 'Add model' }).click();
      await page.getByLabel('Entry (JSON, the fields of models.json)').fill('{"kind": "image"}');
      await page
        .getByRole('form', { name: 'New model entry' })
        .screenshot({ path: path.join(SCREENSHOTS, `settings-model-editor-${suffix}.png`) });
      await page
        .getByRole('form', { name: 'Prices for the estimate' })
        .screenshot({ path: path.join(SCREENSHOTS, `settings-prices-${suffix}.png`) });
      for (const tab of ['Queue', 'Library', 'General']) {
        await page.getByRole('tab', { name: tab }).click();
        await expect
          .poll(() => page.getByRole('tab', { name: tab }).getAttribute('aria-selected'))
          .toBe('true');
        await page.screenshot({
          path: path.join(SCREENSHOTS, `settings-${tab.toLowerCase()}-${suffix}.png`),
        });
      }
      await context.close();
    }
  }, 120_000);
});
