import type { Api, RawApi } from '../../../shared/api/types.ts';
import { unwrap } from '../../../shared/api/unwrap.ts';
import { createHttpTransport, type HttpTransportDeps } from './http-transport.ts';
import { encodeLibraryPath, ThumbnailLoader } from './thumbnail-loader.ts';

export type Host = 'desktop' | 'web';
export type MediaKind = 'image' | 'thumb';

/** What the screens use: the API, and where a library file is served. */
export interface Client {
  api: Api;
  raw: RawApi;
  host: Host;
  /** The URL of an image (or of its thumbnail), from its path inside the library. */
  mediaUrl(relPath: string, kind: MediaKind): string;
  /** A thumbnail's bytes, fetched with the others asked for at the same moment. */
  thumbnail(relPath: string): Promise<Blob>;
  /** Where the browser downloads a finished export's zip; null on the desktop (it is on disk). */
  exportUrl(id: string): string | null;
}

/** The parts of `window` connect reads. */
export interface ClientWindow {
  atelier?: RawApi | undefined;
  location: { origin: string };
}

/**
 * Finds the API: the desktop preload's when it is there, else the web host this page came
 * from. Screens never know which.
 */
export function connect(win: ClientWindow = window, deps?: HttpTransportDeps): Client {
  const host: Host = win.atelier ? 'desktop' : 'web';
  const raw = win.atelier ?? createHttpTransport(win.location.origin, deps);
  const thumbnails = new ThumbnailLoader({ fetch: deps?.fetch, origin: win.location.origin });
  return {
    api: unwrap(raw),
    raw,
    host,
    mediaUrl: (rel, kind) => mediaUrl(host, rel, kind),
    thumbnail: (rel) => thumbnails.load(rel),
    exportUrl: (id) => (host === 'web' ? `/exports/${encodeURIComponent(id)}.zip` : null),
  };
}

/** Desktop: the `atelier:` protocol; web: the host's /media and /thumbs routes. */
export function mediaUrl(host: Host, relPath: string, kind: MediaKind): string {
  const path = encodeLibraryPath(relPath);
  const route = kind === 'thumb' ? 'thumbs' : 'media';
  return host === 'desktop' ? `atelier://${route}/${path}` : `/${route}/${path}`;
}
