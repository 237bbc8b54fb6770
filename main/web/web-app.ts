import { Hono } from 'hono';
import { auth } from './auth.ts';
import { eventRoutes } from './events.ts';
import { exportDownloadRoutes } from './export-download.ts';
import { guards } from './guards.ts';
import { failure } from './http-status.ts';
import { ThumbnailMaker } from '../core/library/thumbnail-maker.ts';
import { mediaRoutes } from './media.ts';
import { noRedaction, redactorFor, type Redactor } from './redact.ts';
import { requestLog } from './request-log.ts';
import { sendJson } from './respond.ts';
import { rpcRoutes } from './rpc.ts';
import { sessionRoutes } from './session-routes.ts';
import type { Sessions } from './sessions.ts';
import { securityHeaders, staticRoutes } from './static.ts';
import type { WebEnv } from './web-env.ts';
import type { WebHostOptions } from './web-options.ts';

/** The whole web host as a Hono app for one port; `streams` ends the open event streams. */
export function buildWebApp(
  o: WebHostOptions,
  port: number,
  sessions: Sessions,
  streams: Set<() => void>,
) {
  const redactor = async (): Promise<Redactor> =>
    o.secretsToRedact ? redactorFor(await o.secretsToRedact()) : noRedaction;
  const app = new Hono<WebEnv>();
  app.use('*', securityHeaders);
  app.use('*', async (c, next) => {
    c.set('redactor', await redactor());
    await next();
  });
  app.use('*', requestLog(o.logger));
  app.use('*', guards(port));
  app.use('*', auth(sessions, o.now));
  app.route('/', sessionRoutes(sessions, o.logger));
  app.route(
    '/api/events',
    eventRoutes({
      events: o.app.events,
      toApiError: (error) => o.app.toApiError(error),
      logger: o.logger,
      keepAliveMs: o.keepAliveMs ?? 15_000,
      maxQueuedEventBytes: o.maxQueuedEventBytes ?? 4 * 1024 * 1024,
      redactor,
      streams,
      onSessionEnd: (sessionId, stop) => sessions.onEnd(sessionId, stop),
    }),
  );
  app.route(
    '/api',
    rpcRoutes({
      api: o.app.api,
      toApiError: (error) => o.app.toApiError(error),
      checkOutput: o.checkOutput,
      logger: o.logger,
    }),
  );
  app.all('/api', (c) => sendJson(c, failure('not-found', 'Call POST /api/<area>/<method>.'), 404));
  app.route(
    '/',
    mediaRoutes(() => o.app.libraryDir(), new ThumbnailMaker({ logger: o.logger })),
  );
  app.route('/', exportDownloadRoutes(o.app.api));
  app.route('/', staticRoutes(o.rendererDir));
  app.notFound((c) => sendJson(c, failure('not-found', `Nothing at ${c.req.path}.`), 404));
  app.onError((error, c) => {
    const text = c.var.redactor?.text ?? (() => error.name);
    o.logger.error(text(`The web host failed on ${c.req.method} ${c.req.path}: ${error.message}`));
    const message = 'The web host failed; its log says why.';
    return c.body(JSON.stringify(failure('internal', message)), 500, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
    });
  });
  return app;
}
