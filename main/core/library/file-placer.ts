import { Worker } from 'node:worker_threads';
import type { FinishOptions } from './finish-image.ts';
import type { ImageFacts } from './verify-image.ts';
import { LibraryWriteError, type LibraryWriteErrorKind } from './write-error.ts';

/** One image, as the gateway sent it, to be finished and put on disk at `target`. */
export interface PlaceRequest {
  id: number;
  dir: string;
  target: string;
  source: Uint8Array;
  finish: FinishOptions;
}

/**
 * A request as sent to the thread: one buffer holding the length of a JSON header, the header
 * (everything but the bytes) and the image's bytes, moved rather than copied. Structured
 * cloning the same request as an object cost the engine's thread about three times as much.
 */
export function packRequest({ source, ...header }: PlaceRequest): ArrayBuffer {
  const json = JSON.stringify(header);
  const jsonBytes = Buffer.byteLength(json);
  // (allocUnsafeSlow: memory of its own, never a shared pool's, so it can be transferred)
  const packed = Buffer.allocUnsafeSlow(4 + jsonBytes + source.byteLength);
  packed.writeUInt32LE(jsonBytes, 0);
  packed.write(json, 4);
  packed.set(source, 4 + jsonBytes);
  return packed.buffer as ArrayBuffer;
}

export function unpackRequest(packed: ArrayBuffer): PlaceRequest {
  const bytes = Buffer.from(packed);
  const jsonBytes = bytes.readUInt32LE(0);
  const header = JSON.parse(bytes.toString('utf8', 4, 4 + jsonBytes)) as Omit<
    PlaceRequest,
    'source'
  >;
  return { ...header, source: bytes.subarray(4 + jsonBytes) };
}

/** What is known of an image once its file is written (see finishImageBytes). */
export interface PlacedImage extends ImageFacts {
  /** False: a file already sat at the target (left untouched; compare it by `sha256`). */
  placed: boolean;
  bytes: number;
  sha256: string;
  sourceBytes: number;
}

export type PlaceReply =
  | ({ id: number } & PlacedImage)
  /** The image itself was refused (format, size…): nothing was written. */
  | { id: number; refused: { kind: LibraryWriteErrorKind; message: string } }
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
 * Writes images whose bytes are in memory from a thread of its own (file-placer-worker.ts):
 * metadata embedded, header checked, hashed, then temp file, fsync, link into place without
 * overwriting, folder fsync — writeImage's steps. On the engine's thread each file step is an
 * event-loop round trip that costs more CPU than the system call it waits for; the placer
 * makes them blocking calls on its thread, and the engine's thread only sends the bytes and
 * reads the answer. Measured at latency 0 (64x64 PNGs): see docs/performance.md.
 *
 * The thread starts on the first write and holds the process open only while writes are in
 * flight. `close()` ends it once those are answered.
 */
export class FilePlacer {
  private worker: Worker | null = null;
  private readonly pending = new Map<
    number,
    { resolve: (image: PlacedImage) => void; reject: (error: unknown) => void }
  >();
  private outbox: PlaceRequest[] = [];
  private nextId = 1;
  private closed = false;

  /**
   * Finishes `source` (finishImageBytes) and writes it at `target`, in the folder `dir`
   * (created if missing). Resolves once the file and its folder entry are on disk, or with
   * `placed: false` when a file already sits at `target`; rejects with a LibraryWriteError
   * for a bad image, or a PlaceError (an errno code) when the disk refuses.
   */
  place(
    dir: string,
    target: string,
    source: Uint8Array,
    finish: FinishOptions,
  ): Promise<PlacedImage> {
    if (this.closed) return Promise.reject(new Error('The file placer was closed.'));
    const worker = this.start();
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) worker.ref();
      // Requests leave together at the end of this turn: one message for many writes.
      this.outbox.push({ id, dir, target, source, finish });
      if (this.outbox.length === 1) setImmediate(() => this.send());
    });
  }

  /**
   * Starts the thread now rather than on the first write, so that its start-up (0.1–0.2 s of
   * CPU) overlaps the first requests instead of delaying the first files.
   */
  prepare(): void {
    if (!this.closed) this.start();
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
    // (the desktop bundle builds file-placer-worker.ts as an entry of its own and rewrites
    // this URL to it: workerEntries in electron.vite.config.ts)
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
    // (the caller's bytes are copied into each packed request: it may write them again)
    const packed = batch.map(packRequest);
    this.worker.postMessage(packed, packed);
  }

  private receive(replies: PlaceReply[]): void {
    for (const reply of replies) {
      if ('error' in reply) this.settle(reply.id, new PlaceError(reply.error));
      else if ('refused' in reply) {
        this.settle(reply.id, new LibraryWriteError(reply.refused.kind, reply.refused.message));
      } else {
        const { id, ...image } = reply;
        this.settle(id, image);
      }
    }
  }

  private settle(id: number, outcome: PlacedImage | Error): void {
    const waiter = this.pending.get(id);
    if (!waiter) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
    if (outcome instanceof Error) waiter.reject(outcome);
    else waiter.resolve(outcome);
  }
}
