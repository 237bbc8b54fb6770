import {
  MEDIA_VERSION_PARAM,
  mediaVersion,
  type MediaOwner,
} from '../../../shared/api/media-version.ts';
import type { SessionGrant } from '../../../shared/api/session.ts';
import type { Api, RawApi } from '../../../shared/api/types.ts';
import { unwrap } from '../../../shared/api/unwrap.ts';
import { createHttpTransport, type HttpTransportDeps } from './http-transport.ts';
import { endSession, openNewWindow, SESSION_ENDED, storedSession } from './session.ts';
import { encodeLibraryPath, ThumbnailLoader } from './thumbnail-loader.ts';
import { UrlSigner } from './url-signer.ts';

export type Host = 'desktop' | 'web';
export type MediaKind = 'image' | 'thumb';

export type { MediaOwner };

/** What the screens use: the API, and where a library file is served. */
export interface Client {
  api: Api;
  raw: RawApi;
  host: Host;
  /** The URL of an image (or of its thumbnail), from its path inside the library. */
  mediaUrl(relPath: string, kind: MediaKind, owner: MediaOwner): string;
  /** A thumbnail's bytes, fetched with the others asked for at the same moment. */
  thumbnail(relPath: string, owner: MediaOwner): Promise<Blob>;
  /** Where the browser downloads a finished export's zip; null on the desktop (it is on disk). */
  exportUrl(id: string): string | null;
  /**
   * Opens the app at `route` (`/gallery`) in a new window with a session of its own: the web
   * host only (the desktop has its own windows).
   */
  newWindow?: (route: string) => Promise<void>;
}

/** The parts of `window` connect reads. */
export interface ClientWindow {
  atelier?: RawApi | undefined;
  location: { origin: string };
  sessionStorage?: Pick<Storage, 'getItem' | 'removeItem'>;
  open?: (url: string, target: string, features: string) => unknown;
}

export interface ClientDeps extends HttpTransportDeps {
  /** The clock of signed URLs. */
  now?: () => number;
}

/**
 * Finds the API: the desktop preload's when it is there, else the web host this page came
 * from, with the session this tab opened (session.ts). Screens never know which.
 */
export function connect(win: ClientWindow = window, deps: ClientDeps = {}): Client {
  if (win.atelier) return desktopClient(win.atelier, win.location.origin, deps);
  return webClient(win, storedSession(win.sessionStorage), deps);
}

function desktopClient(raw: RawApi, origin: string, deps: ClientDeps): Client {
  const thumbnails = new ThumbnailLoader({ fetch: deps.fetch, origin });
  return {
    api: unwrap(raw),
    raw,
    host: 'desktop',
    mediaUrl: (rel, kind, owner) =>
      `${mediaPath('desktop', rel, kind)}?${MEDIA_VERSION_PARAM}=${mediaVersion(owner)}`,
    thumbnail: (rel, owner) => thumbnails.load(rel, mediaVersion(owner)),
    exportUrl: () => null,
  };
}

function webClient(win: ClientWindow, grant: SessionGrant | null, deps: ClientDeps): Client {
  const origin = win.location.origin;
  const bearer = grant ? `Bearer ${grant.token}` : null;
  const raw = createHttpTransport(origin, {
    onUnauthorized: () => endSession(SESSION_ENDED, win.sessionStorage),
    ...deps,
    authorization: () => bearer,
  });
  const thumbnails = new ThumbnailLoader({
    fetch: deps.fetch,
    origin,
    headers: (): Record<string, string> => (bearer ? { authorization: bearer } : {}),
  });
  // (no session: the page shows how to open one, and an unsigned URL is refused anyway)
  const signer = grant ? new UrlSigner(grant, deps.now) : null;
  const sign = (path: string, version?: string) => signer?.sign(path, version) ?? path;
  const fetchFn = deps.fetch ?? globalThis.fetch.bind(globalThis);
  return {
    api: unwrap(raw),
    raw,
    host: 'web',
    mediaUrl: (rel, kind, owner) => sign(mediaPath('web', rel, kind), mediaVersion(owner)),
    thumbnail: (rel, owner) => thumbnails.load(rel, mediaVersion(owner)),
    exportUrl: (id) => sign(`/exports/${encodeURIComponent(id)}.zip`),
    newWindow:
      grant && win.open
        ? (route) =>
            openNewWindow(grant, route, {
              origin,
              fetch: fetchFn,
              open: (url, target, features) => win.open!(url, target, features),
            })
        : undefined,
  };
}

/** Desktop: the `atelier:` protocol; web: the host's /media and /thumbs routes. */
export function mediaPath(host: Host, relPath: string, kind: MediaKind): string {
  const path = encodeLibraryPath(relPath);
  const route = kind === 'thumb' ? 'thumbs' : 'media';
  return host === 'desktop' ? `atelier://${route}/${path}` : `/${route}/${path}`;
}
