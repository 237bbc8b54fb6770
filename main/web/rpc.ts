import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { findMethod } from '../../shared/api/channels.ts';
import type { ApiError } from '../../shared/api/errors.ts';
import type { Handlers } from '../../shared/api/types.ts';
import { dispatch } from '../core/app/dispatch.ts';
import type { Logger } from '../core/logger.ts';
import { failure, statusOf } from './http-status.ts';
import { sendJson } from './respond.ts';
import type { WebEnv } from './web-env.ts';

const MiB = 1024 * 1024;
/** Most calls are small; pasted prompts and painted masks can be big. */
export const BODY_LIMIT = MiB;
const BIG_BODY_LIMIT = 96 * MiB;
const BIG_BODIES = new Set(['batches.create', 'batches.check', 'edits.create', 'edits.check']);

export function bodyLimitOf(area: string, method: string): number {
  return BIG_BODIES.has(`${area}.${method}`) ? BIG_BODY_LIMIT : BODY_LIMIT;
}

export interface RpcOptions {
  api: Handlers;
  toApiError: (error: unknown) => ApiError;
  checkOutput?: boolean;
  logger: Logger;
}

/** `POST /api/:area/:method` with a JSON body: any method of the contract, none by name. */
export function rpcRoutes(o: RpcOptions): Hono<WebEnv> {
  const routes = new Hono<WebEnv>();
  routes.post(
    '/:area/:method',
    async (c, next) => {
      const { area, method } = c.req.param();
      if (!findMethod(area, method)) {
        return sendJson(c, failure('not-found', `Atelier has no method "${area}.${method}".`), 404);
      }
      const type = (c.req.header('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
      if (type !== 'application/json') {
        const message = `${area}.${method} takes a JSON body (Content-Type: application/json).`;
        return sendJson(c, failure('invalid-argument', message), 415);
      }
      const maxSize = bodyLimitOf(area, method);
      const tooBig = failure(
        'invalid-argument',
        `The request body is larger than ${maxSize / MiB} MiB, the most ${area}.${method} takes.`,
      );
      return bodyLimit({ maxSize, onError: (c) => sendJson(c, tooBig, 413) })(c, next);
    },
    async (c) => {
      const { area, method } = c.req.param();
      const text = await c.req.text();
      let body: unknown;
      try {
        body = text.trim() === '' ? undefined : JSON.parse(text);
      } catch {
        const message = `The body of ${area}.${method} is not valid JSON.`;
        return sendJson(c, failure('invalid-argument', message), 400);
      }
      const result = await dispatch(o.api, area, method, body, {
        toApiError: o.toApiError,
        checkOutput: o.checkOutput,
      });
      if (!result.ok && result.error.code === 'internal') {
        o.logger.error(c.var.redactor.text(`${area}.${method} failed: ${result.error.message}`));
      }
      return sendJson(c, result, statusOf(result));
    },
  );
  routes.all('*', (c) => {
    const message = `No API route ${c.req.method} ${c.req.path}: call POST /api/<area>/<method>.`;
    return sendJson(c, failure('not-found', message), 404);
  });
  return routes;
}
