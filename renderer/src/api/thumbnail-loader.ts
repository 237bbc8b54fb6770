import {
  parseThumbnailSizes,
  THUMB_BUNDLE_PATH,
  THUMBNAIL_BUNDLE_MAX,
  THUMBNAIL_SIZES_HEADER,
} from '../../../shared/api/thumbnail-bundle.ts';

/** A bundle's query stays under this: hosts refuse request lines much past 8–16 KB. */
const MAX_QUERY_LENGTH = 6000;
/** Bundles whose thumbnails are kept for a tile that comes back (a few screens' worth). */
const RECENT_BUNDLES = 24;

interface Waiter {
  relPath: string;
  /** relPath with the image's version: what the thumbnails are kept under */
  key: string;
  /** `p=…`: the path as after /thumbs/, percent-encoded again for the query */
  part: string;
  resolve(bytes: Blob): void;
  reject(error: Error): void;
}

export interface ThumbnailLoaderDeps {
  fetch?: typeof fetch;
  /** Headers for the bundle request (the web host's session). */
  headers?: () => Record<string, string>;
  /** Where the bundle route is (default: the page's origin, as both hosts serve it). */
  origin?: string;
  /** When the paths asked so far are sent (default a microtask: a commit's tiles ask together). */
  schedule?: (send: () => void) => void;
}

/**
 * The grid's thumbnails, fetched together: every thumbnail asked for in the same task goes in
 * one bundle request (shared/api/thumbnail-bundle.ts), since a browser spends milliseconds of
 * its own on every request. Each answer is a slice of the bundle's Blob, which the browser
 * keeps outside the page; the last RECENT_BUNDLES bundles' slices are kept, so a tile scrolled
 * back into view is drawn without asking again, and a thumbnail asked for twice while in flight
 * is fetched once. A thumbnail the bundle does not carry (not made yet, not in the library) is
 * refused: the tile then asks the one-thumbnail route, which makes it.
 *
 * Thumbnails are kept under their path and their image's version (its id and time), never the
 * path alone: a path a newer image reuses (a batch deleted, then made again under its name)
 * is another thumbnail.
 */
export class ThumbnailLoader {
  private queue: Waiter[] = [];
  private readonly inFlight = new Map<string, Promise<Blob>>();
  /** key → its slice and the bundle it came in, for the last RECENT_BUNDLES bundles */
  private readonly recent = new Map<string, { bytes: Blob; bundle: number }>();
  private readonly recentBundles: Array<{ bundle: number; keys: string[] }> = [];
  private bundles = 0;
  private readonly fetchFn: typeof fetch;
  private readonly headers: () => Record<string, string>;
  private readonly origin: string;
  private readonly schedule: (send: () => void) => void;

  constructor(deps: ThumbnailLoaderDeps = {}) {
    this.fetchFn = deps.fetch ?? globalThis.fetch.bind(globalThis);
    this.headers = deps.headers ?? (() => ({}));
    this.origin = deps.origin ?? '';
    this.schedule = deps.schedule ?? ((send) => queueMicrotask(send));
  }

  /**
   * The thumbnail's bytes (WebP, or the image itself where no thumbnail could be made);
   * `version` tells the image at `relPath` now from one that was there before.
   */
  load(relPath: string, version = ''): Promise<Blob> {
    const key = `${version}\n${relPath}`;
    const kept = this.recent.get(key);
    if (kept) return Promise.resolve(kept.bytes);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    let part: string;
    try {
      part = `p=${encodeURIComponent(encodeLibraryPath(relPath))}`;
    } catch {
      return Promise.reject(new Error(`${relPath} cannot be put in a URL.`)); // a lone surrogate
    }
    const promise = new Promise<Blob>((resolve, reject) => {
      this.queue.push({ relPath, key, part, resolve, reject });
      if (this.queue.length === 1) this.schedule(() => this.flush());
    });
    this.inFlight.set(key, promise);
    const forget = () => this.inFlight.delete(key);
    promise.then(forget, forget);
    return promise;
  }

  private flush(): void {
    const waiting = this.queue;
    this.queue = [];
    let batch: Waiter[] = [];
    let length = 0;
    for (const waiter of waiting) {
      const full =
        batch.length === THUMBNAIL_BUNDLE_MAX || length + waiter.part.length > MAX_QUERY_LENGTH;
      if (batch.length > 0 && full) {
        void this.send(batch);
        batch = [];
        length = 0;
      }
      batch.push(waiter);
      length += waiter.part.length + 1;
    }
    if (batch.length > 0) void this.send(batch);
  }

  private async send(batch: Waiter[]): Promise<void> {
    try {
      const query = batch.map((w) => w.part).join('&');
      const response = await this.fetchFn(`${this.origin}${THUMB_BUNDLE_PATH}?${query}`, {
        headers: this.headers(),
        credentials: 'omit',
      });
      if (!response.ok) throw new Error(`The thumbnails did not load (HTTP ${response.status}).`);
      const sizes = parseThumbnailSizes(response.headers.get(THUMBNAIL_SIZES_HEADER), batch.length);
      const bytes = await response.blob();
      const total = sizes?.reduce((sum, s) => sum + (s.kind === 'bytes' ? s.size : 0), 0);
      if (!sizes || total !== bytes.size) {
        throw new Error('The thumbnails came back garbled: the host sent no usable sizes.');
      }
      const bundle = ++this.bundles;
      const carried: string[] = [];
      let at = 0;
      batch.forEach((waiter, i) => {
        const entry = sizes[i]!;
        if (entry.kind === 'bytes') {
          const slice = bytes.slice(at, at + entry.size);
          at += entry.size;
          this.recent.set(waiter.key, { bytes: slice, bundle });
          carried.push(waiter.key);
          waiter.resolve(slice);
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
      this.keep(bundle, carried);
    } catch (error) {
      const reason = error instanceof Error ? error : new Error(String(error));
      for (const waiter of batch) waiter.reject(reason);
    }
  }

  /** Remembers a bundle's keys, forgetting the oldest bundle's (each slice holds its bundle). */
  private keep(bundle: number, keys: string[]): void {
    this.recentBundles.push({ bundle, keys });
    while (this.recentBundles.length > RECENT_BUNDLES) {
      const oldest = this.recentBundles.shift()!;
      for (const key of oldest.keys) {
        if (this.recent.get(key)?.bundle === oldest.bundle) this.recent.delete(key);
      }
    }
  }
}

/** A library path as URLs carry it: each segment percent-encoded, the slashes kept. */
export function encodeLibraryPath(relPath: string): string {
  return relPath.split('/').map(encodeURIComponent).join('/');
}
