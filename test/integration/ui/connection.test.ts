import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoUi } from '../../support/atelier-ui.ts';
import { startHttpRelay, type HttpRelay } from '../../support/http-relay.ts';
import { call, eventually, screenshots } from '../../support/page-helpers.ts';

/**
 * The window knows when it is cut off from its host: the status bar and a notice say so, the
 * actions wait, and once the host answers again everything shown is read again (what changed
 * meanwhile sent its events to nobody). The window reaches its host through a relay the test
 * cuts, as a network drop would.
 */

let demo: Awaited<ReturnType<typeof startDemoUi>>;
let relay: HttpRelay;

beforeAll(async () => {
  demo = await startDemoUi('connection');
  relay = await startHttpRelay(demo.ui.origin);
}, 120_000);

afterAll(async () => {
  await relay?.close();
  await demo?.stop();
});

const connection = (page: Page) => page.getByRole('status', { name: 'Connection' });

async function openQueue(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page
    .getByRole('navigation', { name: 'Atelier' })
    .getByRole('link', { name: 'Queue' })
    .click();
  await eventually(() => connection(page).count()).toBe(0);
}

describe('a window whose connection drops', () => {
  it('says so, disables its actions, and reads everything again once the host answers', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1180, height: 800 } });
    const page = await context.newPage();
    await openQueue(page, relay.through(await demo.ui.newAddress()));
    const { id } = await call<{ id: number }>(page, 'batches', 'create', {
      name: 'herons',
      source: { kind: 'rows', rows: [{ prompt: 'a heron' }] },
      defaults: { model: 'flux-schnell', size: '64x64' },
      paused: true,
    });
    await eventually(() =>
      page.getByRole('button', { name: 'Show jobs of herons' }).isVisible(),
    ).toBe(true);
    const pauseQueue = page.getByRole('button', { name: 'Pause queue' });
    await eventually(() => pauseQueue.isEnabled()).toBe(true);

    await relay.cut();
    await eventually(() => connection(page).textContent()).toBe('Disconnected: reconnecting…');
    expect(await page.getByRole('alert', { name: 'Disconnected' }).textContent()).toMatch(
      /Disconnected from Atelier\..*(not answering|closed the event stream)/,
    );
    expect(await pauseQueue.isDisabled()).toBe(true);
    // the last state known is not claimed as the present one
    const queueStatus = page.getByRole('status', { name: 'Queue status' });
    expect(await queueStatus.textContent()).toBe('Not known while disconnected');
    await screenshots(page, 'connection-lost');

    // renamed meanwhile in another window: its event reaches every window but this one
    const other = await demo.browser.newContext();
    const otherPage = await other.newPage();
    await openQueue(otherPage, await demo.ui.newAddress());
    await call(otherPage, 'batches', 'rename', { id, name: 'egrets' });
    await other.close();

    await relay.restore();
    await eventually(() => connection(page).count()).toBe(0);
    await eventually(() =>
      page.getByRole('button', { name: 'Show jobs of egrets' }).isVisible(),
    ).toBe(true);
    expect(await pauseQueue.isEnabled()).toBe(true);
    expect(await queueStatus.textContent()).toMatch(/^(Running|Idle: nothing to run)/);
    expect(await page.getByRole('alert', { name: 'Disconnected' }).count()).toBe(0);
    await context.close();
  }, 90_000);
});
