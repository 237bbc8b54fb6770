import { ensureRendererBuilt } from './atelier-ui.ts';

/** Vitest global setup: the browser tests drive `atelier ui`, which serves the built renderer. */
export default async function setup(): Promise<void> {
  await ensureRendererBuilt();
}
