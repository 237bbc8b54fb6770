import type { Readable } from 'node:stream';
import { header, type HeaderBag } from '../classify/headers.ts';

const asBytes = (chunk: Buffer | string): Buffer =>
  typeof chunk === 'string' ? Buffer.from(chunk) : chunk;

/** The whole body; rejects with the error that ended it early. */
export function readAll(body: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // Destroyed before reading began (a time-out while nobody read it): no event will come.
    if (body.errored) return reject(body.errored);
    if (body.destroyed) return reject(new Error('the answer was released before it was read'));
    const chunks: Buffer[] = [];
    let settled = false;
    // Events rather than async iteration: measurably cheaper per request.
    body.on('data', (chunk: Buffer | string) => chunks.push(asBytes(chunk)));
    body.once('end', () => {
      settled = true;
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    body.once('error', (error) => {
      settled = true;
      reject(error);
    });
    body.once('close', () => {
      // Closed with neither an end nor an error: released while being read.
      if (!settled) reject(new Error('the answer was released while it was read'));
    });
  });
}

/**
 * A web stream over the body, as the library and the engine read downloads. `ended` hears how
 * many bytes arrived and may still turn the end into an error (a body cut short); `failed`
 * turns a read error into the stream's error; `cancel` hears that the reader gave up.
 */
export function webStream(
  body: Readable,
  handlers: {
    ended(received: number): Error | null;
    failed(error: unknown): Error;
    cancel(): void;
  },
): ReadableStream<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]();
  let received = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let problem: Error | null;
      try {
        const { done, value } = await chunks.next();
        if (!done) {
          const bytes = asBytes(value as Buffer | string);
          received += bytes.byteLength;
          controller.enqueue(bytes);
          return;
        }
        problem = handlers.ended(received);
      } catch (error) {
        problem = handlers.failed(error);
      }
      if (problem) controller.error(problem);
      else controller.close();
    },
    cancel() {
      handlers.cancel();
    },
  });
}

/** The announced length, or null when there is none (chunked) or it is not a number. */
export function contentLength(headers: HeaderBag): number | null {
  const value = header(headers, 'content-length');
  if (value === null || value.trim() === '') return null;
  const length = Number(value);
  return Number.isFinite(length) ? length : null;
}
