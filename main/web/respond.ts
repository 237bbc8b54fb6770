import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { WebEnv } from './web-env.ts';

/** A JSON body, secrets redacted, never cached: every API answer and error goes out here. */
export function sendJson(c: Context<WebEnv>, value: unknown, status: ContentfulStatusCode) {
  return c.body(c.var.redactor.json(value), status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
  });
}
