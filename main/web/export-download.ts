import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import type { Handlers } from '../../shared/api/types.ts';
import { failure } from './http-status.ts';
import { sendJson } from './respond.ts';
import type { WebEnv } from './web-env.ts';

/**
 * `GET /exports/<id>.zip`: the zip of an export this service finished, as an attachment. Only
 * ids the service knows and whose export is done: the path is the service's, never the URL's.
 */
export function exportDownloadRoutes(api: Handlers): Hono<WebEnv> {
  const routes = new Hono<WebEnv>();
  routes.get('/exports/:file', async (c) => {
    const id = /^([A-Za-z0-9-]{1,64})\.zip$/.exec(c.req.param('file'))?.[1];
    const progress = id ? await api.exports.get({ id }).catch(() => null) : null;
    if (!progress || progress.state !== 'done') {
      const why = progress ? `Export ${id} is ${progress.state}, not finished.` : 'No such export.';
      return sendJson(c, failure('not-found', why), 404);
    }
    const size = await stat(progress.path).then(
      (s) => (s.isFile() ? s.size : null),
      () => null,
    );
    if (size === null) {
      const gone = `The zip of export ${id} is no longer at ${progress.path}.`;
      return sendJson(c, failure('not-found', gone), 404);
    }
    const name = basename(progress.path);
    const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
    const body = Readable.toWeb(createReadStream(progress.path)) as ReadableStream<Uint8Array>;
    return new Response(body, {
      headers: {
        'Content-Type': 'application/zip',
        'Content-Length': String(size),
        'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        'Cache-Control': 'no-store',
      },
    });
  });
  return routes;
}
