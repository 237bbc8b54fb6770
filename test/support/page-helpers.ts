import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { SCREENSHOTS } from './atelier-ui.ts';

/** expect.poll with room for a loaded machine (its own default is one second). */
export const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });

/** Calls the contract from inside the page, as the app itself does (its tab's session). */
export async function call<T>(
  page: Page,
  area: string,
  method: string,
  input: unknown,
): Promise<T> {
  const answer = await page.evaluate(
    async ([area, method, input]) => {
      const { token } = JSON.parse(sessionStorage.getItem('atelier.session')!) as { token: string };
      const response = await fetch(`/api/${area}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(input),
      });
      return response.json() as Promise<{ ok: boolean; value?: unknown; error?: unknown }>;
    },
    [area, method, input] as const,
  );
  if (!answer.ok) throw new Error(`${area}.${method}: ${JSON.stringify(answer.error)}`);
  return answer.value as T;
}

/** Light, then dark: the same page in both schemes. */
export async function screenshots(page: Page, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${colorScheme}.png`) });
  }
}
