import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ApiError } from '../../shared/api/errors.ts';
import type { EventSource } from '../../shared/api/types.ts';
import type { Logger } from '../core/logger.ts';
import { EventQueue, type QueuedMessage } from './event-queue.ts';
import { failure, statusOf } from './http-status.ts';
import type { Redactor } from './redact.ts';
import { sendJson } from './respond.ts';
import type { WebEnv } from './web-env.ts';

export interface EventRouteOptions {
  events: EventSource;
  toApiError: (error: unknown) => ApiError;
  logger: Logger;
  keepAliveMs: number;
  maxQueuedEventBytes: number;
  /** The secrets now: the key can change while a stream stays open. */
  redactor: () => Promise<Redactor>;
  /** Open streams, so that closing the host can end them. */
  streams: Set<() => void>;
  /** Runs `stop` when the session a stream was opened with ends; returns the way to stop watching. */
  onSessionEnd: (sessionId: string, stop: () => void) => () => void;
}

const MAX_CURSOR = 512;

/**
 * `GET /api/events?cursor=…` as Server-Sent Events: each delivery of the service is one
 * message whose `id` is its cursor, so the browser's reconnect (`Last-Event-ID`) resumes
 * with no gap and no duplicate.
 */
export function eventRoutes(o: EventRouteOptions): Hono<WebEnv> {
  const routes = new Hono<WebEnv>();
  routes.get('/', (c) => {
    // the browser's reconnect sends Last-Event-ID: newer than the cursor of the first page load
    const cursor = c.req.header('last-event-id') || c.req.query('cursor') || null;
    if (cursor !== null && cursor.length > MAX_CURSOR) {
      return sendJson(c, failure('invalid-argument', 'The event cursor is too long.'), 400);
    }
    const queue = new EventQueue(o.maxQueuedEventBytes);
    let wake: (() => void) | null = null;
    const poke = () => {
      wake?.();
      wake = null;
    };
    let unsubscribe: () => void;
    try {
      unsubscribe = o.events.subscribe(cursor, (batch) => {
        if (queue.push(batch) === 'overflow') {
          o.logger.warn(
            `An event stream fell more than ${o.maxQueuedEventBytes} bytes behind: ` +
              'it was told to resync.',
          );
        }
        poke();
      });
    } catch (error) {
      const result = { ok: false as const, error: o.toApiError(error) };
      return sendJson(c, result, statusOf(result));
    }
    const keepAlive = setInterval(() => {
      queue.pushComment();
      poke();
    }, o.keepAliveMs);
    let stopped = false;
    let unwatch = () => {};
    const stop = () => {
      if (stopped) return;
      stopped = true;
      unsubscribe();
      unwatch();
      clearInterval(keepAlive);
      o.streams.delete(stop);
      poke();
    };
    o.streams.add(stop);
    // a session that ends (its code was used twice) hears nothing more
    const session = c.var.session;
    if (session) unwatch = o.onSessionEnd(session.sessionId, stop);
    c.req.raw.signal.addEventListener('abort', stop);
    return streamSSE(c, async (stream) => {
      stream.onAbort(stop);
      try {
        while (!stopped && !stream.aborted) {
          const message = queue.shift();
          if (message) await stream.write(await frame(message, o));
          else await new Promise<void>((resolve) => (wake = resolve));
        }
      } finally {
        stop();
      }
    });
  });
  return routes;
}

/** One SSE message as written on the wire. */
async function frame(message: QueuedMessage, o: EventRouteOptions): Promise<string> {
  if (message.kind === 'comment') return ': keep-alive\n\n';
  const redactor = await o.redactor();
  const data = redactor.json(message.events, message.json);
  if (redactor.hits > 0)
    o.logger.warn('An event held a secret: it was redacted. Please report it.');
  // a cursor is base64url; a line break in it would forge fields
  const id = /[\r\n]/.test(message.id) ? '' : `id: ${message.id}\n`;
  return `${id}data: ${data}\n\n`;
}
