import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../core/logger.ts';
import { rawPath } from './guards.ts';
import type { WebEnv } from './web-env.ts';

const REFUSALS = new Set([401, 403, 421]);

/**
 * Logs what someone should look at: refused requests and server errors. The path is logged
 * still encoded (no line breaks from `%0a`), never the query (the token rides in it).
 */
export function requestLog(logger: Logger): MiddlewareHandler<WebEnv> {
  return async (c, next) => {
    await next();
    const status = c.res.status;
    const line = () => c.var.redactor.text(`${c.req.method} ${rawPath(c)} -> ${status}`);
    if (status >= 500) logger.error(line());
    else if (REFUSALS.has(status)) logger.warn(line());
    if (c.var.redactor.hits > 0) {
      logger.warn(`The response to ${line()} held a secret: it was redacted. Please report it.`);
    }
  };
}
