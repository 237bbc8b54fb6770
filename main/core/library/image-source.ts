import { LibraryWriteError } from './write-error.ts';

/**
 * Where an image's bytes come from: a Buffer (decoded b64_json), a web ReadableStream (a
 * fetch body), a Node Readable (an http response), or any other async iterable of chunks.
 */
export type ImageSource = Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

interface ChunkReader {
  next(): Promise<IteratorResult<Uint8Array>>;
  /** Ends the source early, so a pending read settles instead of waiting for data. */
  stop(): void;
}

function readerFor(source: ImageSource): ChunkReader {
  if (source instanceof Uint8Array) {
    let done = false;
    return {
      next: async () => {
        if (done) return { done: true, value: undefined };
        done = true;
        return { done: false, value: source };
      },
      stop: () => {
        done = true;
      },
    };
  }
  if (source instanceof ReadableStream) {
    // A reader, not the async iterator: the iterator's return() waits for a pending read.
    const reader = source.getReader();
    return { next: () => reader.read(), stop: () => void reader.cancel().catch(() => undefined) };
  }
  const iterator = source[Symbol.asyncIterator]();
  const destroy = (source as { destroy?: unknown }).destroy;
  return {
    next: () => iterator.next(),
    stop: () => {
      if (typeof destroy === 'function') destroy.call(source);
      else void iterator.return?.()?.catch(() => undefined);
    },
  };
}

/**
 * The source's chunks as Buffers. A failure of the source itself (the connection dropped, the
 * server reset it) becomes a 'network' LibraryWriteError, told apart from disk errors; an
 * abort stops the source at once, even one that does not watch the signal itself.
 */
export async function* sourceChunks(
  source: ImageSource,
  signal?: AbortSignal,
): AsyncGenerator<Buffer> {
  const reader = readerFor(source);
  const onAbort = () => reader.stop();
  signal?.addEventListener('abort', onAbort, { once: true });
  let received = 0;
  let finished = false;
  try {
    for (;;) {
      if (signal?.aborted) throw abortedError(signal);
      const result = await reader.next();
      if (signal?.aborted) throw abortedError(signal);
      if (result.done) break;
      const chunk = result.value;
      received += chunk.byteLength;
      yield Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
    finished = true;
  } catch (error) {
    if (error instanceof LibraryWriteError) throw error;
    if (signal?.aborted) throw abortedError(signal);
    throw sourceBroke(error, received);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!finished) reader.stop(); // a failure downstream: release the connection
  }
}

/** The source itself failed after `received` bytes: told apart from the disk's errors. */
export function sourceBroke(error: unknown, received: number): LibraryWriteError {
  const reason = error instanceof Error ? describeCause(error) : String(error);
  return new LibraryWriteError(
    'network',
    `The download failed after ${received} bytes: ${reason}. Retry the download.`,
    { cause: error },
  );
}

export function abortedError(signal: AbortSignal): LibraryWriteError {
  return new LibraryWriteError('aborted', 'The image write was cancelled.', {
    cause: signal.reason,
  });
}

function describeCause(error: Error): string {
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
