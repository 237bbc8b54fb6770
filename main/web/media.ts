import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { MEDIA_VERSION_PARAM } from '../../shared/api/media-version.ts';
import { mediaCacheControl } from '../core/library/media-cache.ts';
import { resolveMediaPath } from '../core/library/media-path.ts';
import { thumbnailBundle } from '../core/library/thumbnail-bundle.ts';
import type { ThumbnailMaker, ThumbnailToServe } from '../core/library/thumbnail-maker.ts';
import { THUMB_BUNDLE_PATH, THUMBNAIL_BUNDLE_MAX } from '../../shared/api/thumbnail-bundle.ts';
import { rawPath } from './guards.ts';
import { failure } from './http-status.ts';
import { sendJson } from './respond.ts';
import type { WebEnv } from './web-env.ts';

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  mp4: 'video/mp4',
};

/** The Content-Type of a media file the library may hold, by its extension. */
export function mediaType(path: string): string {
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return TYPES[extension] ?? 'application/octet-stream';
}

/**
 * `GET /media/<path>` and `GET /thumbs/<path of the image>`: files inside the library only.
 * `resolveMediaPath` does all the containment, on the path as the client wrote it. A missing
 * thumbnail is made on first view (`thumbnails`); if it cannot be, the image itself is served.
 * `GET /thumb-bundle?p=<path>&p=…`: the grid's thumbnails in one answer (thumbnail-bundle.ts).
 */
export function mediaRoutes(libraryDir: () => string, thumbnails: ThumbnailMaker): Hono<WebEnv> {
  const routes = new Hono<WebEnv>();
  routes.get(THUMB_BUNDLE_PATH, async (c) => {
    const bundle = await thumbnailBundle(libraryDir(), c.req.queries('p') ?? []);
    return (
      bundle ??
      sendJson(
        c,
        failure('invalid-argument', `Ask for 1 to ${THUMBNAIL_BUNDLE_MAX} thumbnails: p=<path>.`),
        400,
      )
    );
  });
  for (const prefix of ['/media/', '/thumbs/']) {
    const find = async (inside: string): Promise<ThumbnailToServe | null> => {
      if (prefix === '/thumbs/') return thumbnails.thumbnailFor(libraryDir(), inside);
      const path = await resolveMediaPath(libraryDir(), inside, 'image');
      return path ? { path, fallback: false } : null;
    };
    routes.get(`${prefix}*`, async (c) => {
      const raw = rawPath(c);
      const file = raw.startsWith(prefix) ? await find(raw.slice(prefix.length)) : null;
      const response =
        file === null ? undefined : await serveStatic({ path: file.path })(c, async () => {});
      if (!(response instanceof Response)) {
        return sendJson(c, failure('not-found', 'No such image in the library.'), 404);
      }
      // serveStatic streams the file, with Range (videos seek) and HEAD; a player learns
      // from the whole answer that it may ask for parts
      response.headers.set('Content-Type', mediaType(file!.path));
      response.headers.set('Accept-Ranges', 'bytes');
      // kept until the signed URL expires, if it names the image's version
      const signedUntil = c.var.signedUntil;
      const cacheControl = mediaCacheControl({
        versioned: signedUntil !== undefined && c.req.query(MEDIA_VERSION_PARAM) !== undefined,
        fallback: file!.fallback,
        maxAgeS: (signedUntil ?? 0) - Date.now() / 1000,
      });
      response.headers.set('Cache-Control', cacheControl);
      return response;
    });
  }
  return routes;
}
