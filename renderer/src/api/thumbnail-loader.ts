import {
  parseThumbnailSizes,
  THUMB_BUNDLE_PATH,
  THUMBNAIL_BUNDLE_MAX,
  THUMBNAIL_SIZES_HEADER,
} from '../../../shared/api/thumbnail-bundle.ts';

/** A bundle's query stays under this: hosts refuse request lines much past 8–16 KB. */
const MAX_QUERY_LENGTH = 6000;

interface Waiter {
  relPath: string;
  resolve(bytes: Blob): void;
  reject(error: Error): void;
}

export interface ThumbnailLoaderDeps {
  fetch?: typeof fetch;
  /** Where the bundle route is (default: the page's origin, as both hosts serve it). */
  origin?: string;
  /** When the paths asked so far are sent (default a microtask: a commit's tiles ask together). */
  schedule?: (send: () => void) => void;
}

/**
 * The grid's thumbnails, fetched together: every thumbnail asked for in the same task goes in
 * one bundle request (shared/api/thumbnail-bundle.ts), since a browser spends milliseconds of
 * its own on every request. Each answer is a slice of the bundle's Blob, which the browser
 * keeps outside the page; a thumbnail asked for twice while in flight is fetched once.
 * A thumbnail the bundle does not carry (not made yet, not in the library) is refused: the
 * tile then asks the one-thumbnail route, which makes it.
 */
export class ThumbnailLoader {
  private queue: Waiter[] = [];
  private readonly inFlight = new Map<string, Promise<Blob>>();
  private readonly fetchFn: typeof fetch;
  private readonly origin: string;
  private readonly schedule: (send: () => void) => void;

  constructor(deps: ThumbnailLoaderDeps = {}) {
    this.fetchFn = deps.fetch ?? globalThis.fetch.bind(globalThis);
    this.origin = deps.origin ?? '';
    this.schedule = deps.schedule ?? ((send) => queueMicrotask(send));
  }

  /** The thumbnail's bytes (WebP, or the image itself where no thumbnail could be made). */
  load(relPath: string): Promise<Blob> {
    const pending = this.inFlight.get(relPath);
    if (pending) return pending;
    const promise = new Promise<Blob>((resolve, reject) => {
      this.queue.push({ relPath, resolve, reject });
      if (this.queue.length === 1) this.schedule(() => this.flush());
    });
    this.inFlight.set(relPath, promise);
    const forget = () => this.inFlight.delete(relPath);
    promise.then(forget, forget);
    return promise;
  }

  private flush(): void {
    const waiting = this.queue;
    this.queue = [];
    let batch: Waiter[] = [];
    let length = 0;
    for (const waiter of waiting) {
      const part = `p=${encodeURIComponent(encodeLibraryPath(waiter.relPath))}`;
      if (batch.length === THUMBNAIL_BUNDLE_MAX || length + part.length > MAX_QUERY_LENGTH) {
        void this.send(batch);
        batch = [];
        length = 0;
      }
      batch.push(waiter);
      length += part.length + 1;
    }
    if (batch.length > 0) void this.send(batch);
  }

  private async send(batch: Waiter[]): Promise<void> {
    try {
      const query = batch.map((w) => `p=${encodeURIComponent(encodeLibraryPath(w.relPath))}`);
      const response = await this.fetchFn(`${this.origin}${THUMB_BUNDLE_PATH}?${query.join('&')}`);
      if (!response.ok) throw new Error(`The thumbnails did not load (HTTP ${response.status}).`);
      const sizes = parseThumbnailSizes(response.headers.get(THUMBNAIL_SIZES_HEADER), batch.length);
      const bytes = await response.blob();
      const total = sizes?.reduce((sum, s) => sum + (s.kind === 'bytes' ? s.size : 0), 0);
      if (!sizes || total !== bytes.size) {
        throw new Error('The thumbnails came back garbled: the host sent no usable sizes.');
      }
      let at = 0;
      batch.forEach((waiter, i) => {
        const entry = sizes[i]!;
        if (entry.kind === 'bytes') {
          waiter.resolve(bytes.slice(at, at + entry.size));
          at += entry.size;
        } else {
          waiter.reject(
            new Error(
              entry.kind === 'missing'
                ? `No image at ${waiter.relPath} in the library.`
                : `The thumbnail of ${waiter.relPath} is not made yet.`,
            ),
          );
        }
      });
    } catch (error) {
      const reason = error instanceof Error ? error : new Error(String(error));
      for (const waiter of batch) waiter.reject(reason);
    }
  }
}

/** A library path as URLs carry it: each segment percent-encoded, the slashes kept. */
export function encodeLibraryPath(relPath: string): string {
  return relPath.split('/').map(encodeURIComponent).join('/');
}
