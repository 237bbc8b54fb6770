import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNED_OUT_TITLE } from '../../../shared/api/session.ts';
import { startDemoUi, type RunningUi } from '../../support/atelier-ui.ts';
import { call, eventually } from '../../support/page-helpers.ts';

let ui: RunningUi;
let browser: Browser;
let stop: () => Promise<void>;

/** Another server on this machine, as a dev server or a Docker port is: it records what it gets. */
let other: Server;
let otherOrigin: string;
const received: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
/** Cookies it sets for 127.0.0.1 from its page (cookies ignore ports): names and a bulk. */
const TOSSED = (atelierPort: string) => /* js */ `
  document.cookie = 'atelier-${atelierPort}=bogus; path=/api';
  document.cookie = 'atelier-${atelierPort}=bogus; path=/';
  for (let i = 0; i < 170; i++) document.cookie = 'junk' + i + '=' + 'x'.repeat(3900) + '; path=/';
  document.title = 'tossed ' + document.cookie.length;
`;

beforeAll(async () => {
  ({ ui, browser, stop } = await startDemoUi('session'));
  const atelierPort = new URL(ui.origin).port;
  // (a big header limit: the cookies it tosses come back to it too)
  other = createServer({ maxHeaderSize: 2 * 1024 * 1024 }, (request, response) => {
    received.push({ url: request.url ?? '', headers: request.headers });
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(
      request.url === '/toss'
        ? `<!doctype html><title>toss</title><script>${TOSSED(atelierPort)}</script>`
        : '<!doctype html><title>another local server</title><p>hello</p>',
    );
  });
  await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise((done) => other?.close(done));
  await stop?.();
});

/** Opens Atelier in `page` from a fresh address; waits for the app. */
async function openAtelier(page: Page, address?: string): Promise<string> {
  const used = address ?? (await ui.newAddress());
  await page.goto(used);
  await page.getByRole('navigation', { name: 'Atelier' }).waitFor();
  return used;
}

/** What this tab keeps of its session. */
async function sessionOf(
  page: Page,
): Promise<{ token: string; mediaKey: string; sessionId: string }> {
  return JSON.parse((await page.evaluate(() => sessionStorage.getItem('atelier.session')))!);
}

async function waitForImages(page: Page, name: string, count: number): Promise<void> {
  await eventually(async () => {
    const { items } = await call<{ items: Array<{ name: string; downloads: { done: number } }> }>(
      page,
      'batches',
      'list',
      {},
    );
    return items.find((b) => b.name === name)?.downloads.done;
  }).toBe(count);
}

describe('the browser host’s session, in Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  const addresses: string[] = [];

  it('gives another local server visited by the same browser nothing that opens the session', async () => {
    context = await browser.newContext({ viewport: { width: 1180, height: 820 } });
    page = await context.newPage();
    addresses.push(await openAtelier(page));
    // use it: calls, the event stream, thumbnails, an image and a video's URLs
    await call(page, 'batches', 'create', {
      name: 'session harbour',
      source: { kind: 'rows', rows: [{ prompt: 'a harbour at dawn' }, { prompt: 'a gull' }] },
      defaults: { model: 'flux-schnell', size: '256x256' },
    });
    await waitForImages(page, 'session harbour', 2);
    await page
      .getByRole('navigation', { name: 'Atelier' })
      .getByRole('link', { name: 'Gallery' })
      .click();
    const cells = page.getByRole('grid', { name: 'Images' }).getByRole('gridcell');
    await eventually(() => cells.count()).toBe(2);
    await cells.first().dblclick();
    const shown = page.getByRole('dialog').locator('img').first();
    await eventually(() =>
      shown.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).toBe(256);
    await page.keyboard.press('Escape');
    const session = await sessionOf(page);

    // the same browser visits another server on this machine, then that server's page tosses
    // cookies for 127.0.0.1 at every port
    const visitor = await context.newPage();
    await visitor.goto(`${otherOrigin}/`);
    expect(received[0]!.headers.cookie).toBeUndefined();
    await visitor.goto(`${otherOrigin}/toss`);
    await eventually(() => visitor.title()).toMatch(/^tossed \d{6}/);
    await visitor.goto(`${otherOrigin}/after`);

    const secrets = [session.token, session.mediaKey, ...addresses.map(codeOf)];
    for (const request of received) {
      const seen = JSON.stringify(request);
      for (const secret of secrets) expect(seen).not.toContain(secret);
      // the only cookies it ever gets are its own
      const names = (request.headers.cookie ?? '')
        .split('; ')
        .filter(Boolean)
        .map((c) => c.split('=')[0]);
      for (const name of names)
        expect(name).toMatch(new RegExp(`^(atelier-${new URL(ui.origin).port}|junk\\d+)$`));
    }
    await visitor.close();
  }, 120_000);

  it('keeps working after a reload, tossed cookies and all', async () => {
    const before = await sessionOf(page);
    await page.reload();
    await page.getByRole('navigation', { name: 'Atelier' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/gallery'); // no code: the session came from the tab
    expect(await sessionOf(page)).toEqual(before);
    const cells = page.getByRole('grid', { name: 'Images' }).getByRole('gridcell');
    await eventually(() => cells.count()).toBe(2);
    // the tile's thumbnail is drawn (a bundle, with the bearer), and calls answer
    await eventually(() => page.locator('canvas[data-thumb]').count()).toBe(2);
    const { total } = await call<{ total: number }>(page, 'images', 'count', { query: {} });
    expect(total).toBe(2);
  }, 60_000);

  it('opens a new window with a session of its own from the sidebar', async () => {
    const opened = context.waitForEvent('page');
    await page.getByRole('button', { name: 'New window' }).click();
    const second = await opened;
    await second.getByRole('heading', { name: 'Gallery', level: 1 }).waitFor();
    await eventually(() => new URL(second.url()).hash).toBe('#/gallery');
    const mine = await sessionOf(page);
    const theirs = await sessionOf(second);
    expect(theirs.token).not.toBe(mine.token);
    const { total } = await call<{ total: number }>(second, 'images', 'count', { query: {} });
    expect(total).toBe(2);
    await second.close();
  }, 60_000);

  it('shows a window without a session how to open Atelier, in a sentence', async () => {
    const stranger = await browser.newContext();
    const bare = await stranger.newPage();
    await bare.goto(ui.origin);
    await bare.getByRole('heading', { name: SIGNED_OUT_TITLE }).waitFor();
    expect(await bare.textContent('body')).toContain('press Enter in that terminal');
    // an image's address without its signature: the host's page says the same
    await bare.goto(`${ui.origin}/media/session%20harbour/x.png`);
    await bare.getByRole('heading', { name: SIGNED_OUT_TITLE }).waitFor();
    await stranger.close();
  }, 60_000);

  it('closes the window an address opened when someone else uses that address again', async () => {
    const address = await ui.newAddress();
    const mine = await context.newPage();
    await openAtelier(mine, address);
    const stranger = await browser.newContext();
    const thief = await stranger.newPage();
    await thief.goto(address);
    await thief.getByText(/already used/).waitFor();
    // the first window's session ended with it: its event stream closed, and it says so
    await mine.getByRole('heading', { name: SIGNED_OUT_TITLE }).waitFor({ timeout: 30_000 });
    expect(await mine.textContent('body')).toContain('session has ended');
    expect(ui.stderr()).toContain('used twice');
    await stranger.close();
    // the windows opened with other addresses keep theirs
    expect((await call<{ total: number }>(page, 'images', 'count', { query: {} })).total).toBe(2);
  }, 60_000);
});

function codeOf(address: string): string {
  return /code=([\w-]+)/.exec(address)![1]!;
}
