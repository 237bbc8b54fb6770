import type { ExportAnswer, ExportAsk } from './mask-export-worker.ts';

/**
 * The mask layer's way to its worker (mask-export-worker.ts): one worker for the window, started
 * on the first export; null answers mean "do it here" (no worker in this browser, or it failed).
 */
let worker: Worker | null | undefined;
let nextId = 1;
const waiting = new Map<
  number,
  { resolve(made: { png: Blob; painted: number }): void; reject(error: Error): void }
>();

function theWorker(): Worker | null {
  if (worker !== undefined) return worker;
  if (typeof Worker === 'undefined' || typeof OffscreenCanvas === 'undefined')
    return (worker = null);
  try {
    worker = new Worker(new URL('./mask-export-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return (worker = null);
  }
  worker.onmessage = (event: MessageEvent<ExportAnswer>) => {
    const answer = event.data;
    const asked = waiting.get(answer.id);
    if (!asked) return;
    waiting.delete(answer.id);
    if (answer.ok) asked.resolve({ png: answer.png, painted: answer.painted });
    else asked.reject(new Error(answer.message));
  };
  // it could not start, or died: what waits is done here, and so is every export after
  worker.onerror = () => {
    worker?.terminate();
    worker = null;
    for (const asked of waiting.values()) asked.reject(new Error('the mask worker stopped'));
    waiting.clear();
  };
  return worker;
}

/**
 * The layer's pixels cut hard and encoded as a PNG in the worker (`canvas` null: nothing
 * painted, all kept); null when there is no worker, or it failed, to do it here instead.
 */
export async function exportInWorker(
  canvas: HTMLCanvasElement | null,
  width: number,
  height: number,
): Promise<{ png: Blob; painted: number } | null> {
  const to = theWorker();
  if (!to) return null;
  // (a copy of the pixels as they are now: painting may go on meanwhile)
  const bitmap = canvas ? await createImageBitmap(canvas) : null;
  const id = nextId++;
  const ask: ExportAsk = { id, width, height, bitmap };
  try {
    return await new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      to.postMessage(ask, bitmap ? [bitmap] : []);
    });
  } catch {
    return null;
  }
}
