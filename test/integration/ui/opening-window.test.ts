import type { Browser, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startDemoUi, type RunningUi } from '../../support/atelier-ui.ts';
import { call, eventually } from '../../support/page-helpers.ts';

let ui: RunningUi;
let browser: Browser;
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ ui, browser, stop } = await startDemoUi('opening-window'));
}, 120_000);
afterAll(async () => {
  await stop?.();
});

describe('a window while it opens', () => {
  it('is told of a change made before its event stream was registered: it reads after it', async () => {
    const context = await browser.newContext();
    const other = await context.newPage();
    await other.goto(await ui.newAddress('/queue'));
    await eventually(() =>
      other.getByRole('heading', { name: 'Queue', exact: true }).isVisible(),
    ).toBe(true);

    // the new window's event stream reaches the service only when this test lets it
    const page = await context.newPage();
    const { promise: streamAsked, resolve: asked } = Promise.withResolvers<void>();
    const { promise: held, resolve: release } = Promise.withResolvers<void>();
    await page.route('**/api/events*', async (route) => {
      asked();
      await held;
      await route.continue();
    });
    const settingsRead = Promise.withResolvers<void>();
    page.on('requestfinished', (request: Request) => {
      if (new URL(request.url()).pathname === '/api/settings/get') settingsRead.resolve();
    });
    await page.goto(await ui.newAddress('/settings'));
    await streamAsked;
    // (a window that reads at once has its settings answered by now: give it the time to)
    await Promise.race([settingsRead.promise, new Promise((r) => setTimeout(r, 1500))]);
    await call(other, 'settings', 'update', { currency: { code: 'USD', perUnit: 0.000002 } });
    release();

    await page.getByRole('tab', { name: 'Spending' }).click();
    const form = page.getByRole('form', { name: 'Ask before spending' });
    await eventually(() => form.getByText(/≈ \$/).count()).toBeGreaterThan(0);
    await context.close();
  }, 60_000);
});
