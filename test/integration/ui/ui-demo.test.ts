import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, startDemoUi, type RunningUi } from '../../support/atelier-ui.ts';

let ui: RunningUi;
let browser: Browser;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ ui, browser, stop } = await startDemoUi('ui'));
}, 120_000);

afterAll(async () => {
  await stop?.();
});

/** Calls the contract from inside the page, as the app itself does (its tab's session). */
function call(page: Page, area: string, method: string, input: unknown) {
  return page.evaluate(
    async ([area, method, input]) => {
      const { token } = JSON.parse(sessionStorage.getItem('atelier.session')!) as { token: string };
      const response = await fetch(`/api/${area}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(input),
      });
      return response.json() as Promise<{ ok: boolean; value?: unknown }>;
    },
    [area, method, input] as const,
  );
}

describe('atelier ui --demo', () => {
  it('prints exactly one line on stdout: the address with its one-time code', () => {
    expect(ui.stdout()).toMatch(
      /^Atelier is running at http:\/\/127\.0\.0\.1:\d+\/#code=[\w-]{43}\n$/,
    );
    expect(ui.stderr()).toContain('press Enter here for a new one');
    expect(ui.stderr()).toContain('Demo mode: images come from the built-in simulator');
  });

  it('opens in the browser, runs a batch and shows it finished, in light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({
        colorScheme,
        viewport: { width: 1100, height: 720 },
      });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(colorScheme === 'light' ? ui.printed : await ui.newAddress());
      // the code left the address bar (and history) before it was traded
      await expect.poll(() => new URL(page.url()).hash).toBe('');
      await expect.poll(() => page.getByRole('note', { name: 'Demo mode' }).isVisible()).toBe(true);
      const nav = page.getByRole('navigation', { name: 'Atelier' });
      await nav.getByRole('link', { name: 'Gallery' }).click();
      await page.getByRole('heading', { name: 'Gallery', level: 1 }).waitFor();
      await page.screenshot({ path: path.join(SCREENSHOTS, `ui-gallery-${colorScheme}.png`) });
      await nav.getByRole('link', { name: 'Queue' }).click();
      await expect
        .poll(() => page.getByRole('heading', { name: 'Queue', level: 1 }).isVisible())
        .toBe(true);
      // the first pass starts from an empty data folder: the queue's empty state
      if (colorScheme === 'light') {
        await page.screenshot({ path: path.join(SCREENSHOTS, 'ui-queue-empty-light.png') });
      }

      const name = `harbour ${colorScheme}`;
      const created = await call(page, 'batches', 'create', {
        name,
        source: {
          kind: 'rows',
          rows: Array.from({ length: 20 }, (_, i) => ({
            prompt: `a quiet harbour, study ${i + 1}`,
          })),
        },
        defaults: { model: 'flux-schnell', size: '256x256' },
      });
      expect(created.ok).toBe(true);
      const row = page.getByRole('listitem', { name });
      await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain('Finished');
      expect(await row.textContent()).toContain('20 / 20');
      await expect.poll(() => page.getByText(`Batch “${name}” finished`).isVisible()).toBe(true);
      // the toast slides in: the screenshot waits for it to settle
      await page
        .locator('[data-sonner-toast]')
        .first()
        .evaluate((el) => {
          const animated = el as unknown as {
            getAnimations(): Array<{ finished: Promise<unknown> }>;
          };
          return Promise.all(animated.getAnimations().map((a) => a.finished));
        });
      expect(await page.title()).toBe('Atelier');
      await page.screenshot({
        path: path.join(SCREENSHOTS, `ui-demo-${colorScheme}.png`),
        fullPage: true,
      });
      expect(problems).toEqual([]);
      await context.close();
    }
  }, 120_000);

  it('refuses a request without a session, and stops cleanly on Ctrl+C', async () => {
    const origin = ui.origin;
    const refused = await fetch(`${origin}/api/app/info`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(refused.status).toBe(401);
    expect(await ui.stop()).toBe(0);
  }, 60_000);
});
