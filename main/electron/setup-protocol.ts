import { protocol } from 'electron';
import { MEDIA_VERSION_PARAM } from '../../shared/api/media-version.ts';
import { mediaCacheControl } from '../core/library/media-cache.ts';
import { resolveMediaPath } from '../core/library/media-path.ts';
import { thumbnailBundle } from '../core/library/thumbnail-bundle.ts';
import { THUMB_BUNDLE_PATH, THUMBNAIL_BUNDLE_MAX } from '../../shared/api/thumbnail-bundle.ts';
import { ThumbnailMaker } from '../core/library/thumbnail-maker.ts';
import type { Logger } from '../core/logger.ts';
import { fileResponse } from './file-response.ts';
import { resolveRendererFile } from './renderer-files.ts';
import { CONTENT_SECURITY_POLICY } from './setup-security.ts';
import { APP_HOST, APP_SCHEME } from './trusted-url.ts';

/**
 * `atelier:` as a standard, secure scheme (origins, relative URLs, fetch and streamed video
 * work as on https). Electron requires this before the app is ready.
 */
export function registerSchemes(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true },
    },
  ]);
}

const ONE_YEAR_S = 365 * 24 * 3600;

export interface ProtocolOptions {
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** The library folder now: it can change in Settings. */
  libraryDir: () => string;
  logger?: Logger;
  /** Makes a missing thumbnail on first view (one is made if not given). */
  thumbnails?: ThumbnailMaker;
}

/**
 * What `atelier://` answers: `app/…` the renderer's files (with the CSP), `media/…` and
 * `thumbs/…` images and thumbnails from inside the library only (media-path.ts refuses `..`,
 * encoded separators, absolute paths and symlinks out), anything else 404. A missing thumbnail
 * is made on first view; if it cannot be, the image itself is served. `app/thumb-bundle?p=…&p=…`
 * many thumbnails in one answer, for the grid (thumbnail-bundle.ts). Files are streamed with
 * byte ranges, so videos seek (file-response.ts).
 */
export function atelierProtocolHandler(
  options: ProtocolOptions,
): (request: Request) => Promise<Response> {
  const thumbnails = options.thumbnails ?? new ThumbnailMaker({ logger: options.logger });
  return async (request) => {
    if (request.method !== 'GET') return plain(405, 'Only GET is served here.');
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return notFound();
    }
    // on the page's own origin: the renderer fetches it, and its CSP allows only 'self'
    if (url.host === APP_HOST && url.pathname === THUMB_BUNDLE_PATH) {
      const bundle = await thumbnailBundle(options.libraryDir(), url.searchParams.getAll('p'));
      return bundle ?? plain(400, `Ask for 1 to ${THUMBNAIL_BUNDLE_MAX} thumbnails: ?p=<path>.`);
    }
    if (url.host === APP_HOST) {
      const file = await resolveRendererFile(options.rendererDir, url.pathname);
      return file
        ? fileResponse(file, request, { 'Content-Security-Policy': CONTENT_SECURITY_POLICY })
        : notFound();
    }
    // `?v=<the image's version>`: a path a newer image reuses is another URL (media-cache.ts)
    const versioned = url.searchParams.has(MEDIA_VERSION_PARAM);
    const cache = (fallback: boolean) => ({
      'Cache-Control': mediaCacheControl({ versioned, fallback, maxAgeS: ONE_YEAR_S }),
    });
    // the raw, still-encoded path: decoding first would let %2f become a separator
    if (url.host === 'media') {
      const file = await resolveMediaPath(options.libraryDir(), url.pathname, 'image');
      return file ? fileResponse(file, request, cache(false)) : notFound();
    }
    if (url.host === 'thumbs') {
      const file = await thumbnails.thumbnailFor(options.libraryDir(), url.pathname);
      return file ? fileResponse(file.path, request, cache(file.fallback)) : notFound();
    }
    return notFound();
  };
}

export function setupProtocol(options: ProtocolOptions): void {
  const handler = atelierProtocolHandler(options);
  protocol.handle(APP_SCHEME, async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      options.logger?.error('the atelier: protocol failed to answer a request', error);
      return plain(500, 'Atelier could not read this file.');
    }
  });
}

function notFound(): Response {
  return plain(404, 'Not found.');
}

function plain(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
  });
}
