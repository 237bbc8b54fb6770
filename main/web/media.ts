import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { resolveMediaPath, type MediaKind } from '../core/library/media-path.ts';
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
 * `resolveMediaPath` does all the containment, on the path as the client wrote it.
 */
export function mediaRoutes(libraryDir: () => string): Hono<WebEnv> {
  const routes = new Hono<WebEnv>();
  for (const [prefix, kind] of [
    ['/media/', 'image'],
    ['/thumbs/', 'thumb'],
  ] as Array<[string, MediaKind]>) {
    routes.get(`${prefix}*`, async (c) => {
      const raw = rawPath(c);
      const path = raw.startsWith(prefix)
        ? await resolveMediaPath(libraryDir(), raw.slice(prefix.length), kind)
        : null;
      const response = path === null ? undefined : await serveStatic({ path })(c, async () => {});
      if (!(response instanceof Response)) {
        return sendJson(c, failure('not-found', 'No such image in the library.'), 404);
      }
      // serveStatic streams the file, with Range (videos seek) and HEAD
      response.headers.set('Content-Type', mediaType(path!));
      response.headers.set('Cache-Control', 'private, max-age=31536000, immutable');
      return response;
    });
  }
  return routes;
}
