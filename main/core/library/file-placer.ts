import { Worker } from 'node:worker_threads';

/** One image's bytes, ready (metadata embedded, checked), to be put on disk at `target`. */
export interface PlaceRequest {
  id: number;
  dir: string;
  target: string;
  bytes: Uint8Array;
}

export type PlaceReply =
  | { id: number; placed: boolean }
  | {
      id: number;
      error: { code: string | undefined; message: string; action: string; path: string };
    };

/** A file-system failure from the placer's thread, shaped for fromFsError (code, message). */
export class PlaceError extends Error {
  readonly code: string | undefined;
  readonly action: string;
  readonly path: string;

  constructor(failure: {
    code: string | undefined;
    message: string;
    action: string;
    path: string;
  }) {
    super(failure.message);
    this.name = 'PlaceError';
    this.code = failure.code;
    this.action = failure.action;
    this.path = failure.path;
  }
}

/**
 * Puts images on disk from a thread of its own (file-placer-worker.ts): temp file, fsync,
 * link into place without overwriting, folder fsync — writeImage's last steps, for bytes
 * already in memory. On the engine's thread each of those steps is an event-loop round trip
 * that costs more CPU than the system call it waits for; the placer makes them blocking calls
 * on its thread, and the engine's thread only sends the bytes and reads the answer. Measured
 * at latency 0 (64x64 PNGs): see the README's Performance section.
 *
 * The thread starts on the first write and holds the process open only while writes are in
 * flight. `close()` ends it once those are answered.
 */
export class FilePlacer {
  private worker: Worker | null = null;
  private readonly pending = new Map<
    number,
    { resolve: (placed: boolean) => void; reject: (error: unknown) => void }
  >();
  private outbox: PlaceRequest[] = [];
  private nextId = 1;
  private closed = false;

  /**
   * Writes `bytes` at `target` (in the existing or created folder `dir`); the caller must not
   * use `bytes` afterwards (their memory may move to the thread). Resolves true once
   * the file and its folder entry are on disk, false when a file already sits at `target`
   * (left untouched); rejects with a PlaceError (an errno code) when the disk refuses.
   */
  place(dir: string, target: string, bytes: Uint8Array): Promise<boolean> {
    if (this.closed) return Promise.reject(new Error('The file placer was closed.'));
    const worker = this.start();
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) worker.ref();
      // Requests leave together at the end of this turn: one message for many writes.
      this.outbox.push({ id, dir, target, bytes });
      if (this.outbox.length === 1) setImmediate(() => this.send());
    });
  }

  /** Ends the thread once every write sent has been answered. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.pending.size > 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./file-placer-worker.ts', import.meta.url));
    worker.unref();
    worker.on('message', (replies: PlaceReply[]) => this.receive(replies));
    // A thread that dies (out of memory, a bug) fails what it held; the next write starts a
    // new one. The failed images stay retryable like any failed download.
    const lost = (error: unknown) => {
      if (this.worker === worker) this.worker = null;
      const failure = new Error(
        `The file-writing thread stopped (${(error as Error)?.message ?? error}); ` +
          'the images it was writing will be written again.',
      );
      for (const { reject } of this.pending.values()) reject(failure);
      this.pending.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => {
      if (this.pending.size > 0) lost(new Error(`exit code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  private send(): void {
    const batch = this.outbox;
    this.outbox = [];
    if (!this.worker) {
      for (const { id } of batch) this.settle(id, new Error('The file placer was closed.'));
      return;
    }
    // Bytes that own their whole memory move to the thread without a copy; a Buffer cut
    // from a shared pool is copied.
    const transfer: ArrayBuffer[] = [];
    for (const { bytes } of batch) {
      const memory = bytes.buffer;
      if (
        memory instanceof ArrayBuffer &&
        bytes.byteOffset === 0 &&
        bytes.byteLength === memory.byteLength &&
        !transfer.includes(memory)
      ) {
        transfer.push(memory);
      }
    }
    this.worker.postMessage(batch, transfer);
  }

  private receive(replies: PlaceReply[]): void {
    for (const message of replies) {
      this.settle(message.id, 'error' in message ? new PlaceError(message.error) : message.placed);
    }
  }

  private settle(id: number, outcome: boolean | Error): void {
    const waiter = this.pending.get(id);
    if (!waiter) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
    if (outcome instanceof Error) waiter.reject(outcome);
    else waiter.resolve(outcome);
  }
}
