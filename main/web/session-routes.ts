import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  SESSION_CODE_PATH,
  SESSION_PATH,
  type FreshCode,
  type SessionGrant,
} from '../../shared/api/session.ts';
import type { Logger } from '../core/logger.ts';
import { failure } from './http-status.ts';
import { sendJson } from './respond.ts';
import type { Sessions } from './sessions.ts';
import type { WebEnv } from './web-env.ts';

const REFUSED = {
  unknown:
    'This address does not open Atelier: its code is not one this Atelier gave out (it ' +
    'was restarted, or the address was mistyped).',
  expired: 'This address has expired: its code works within about a minute of being given.',
  reused:
    'This address was already used: a code opens one window, once. The window it opened first ' +
    'was closed too, in case someone else had read it.',
};
const FRESH = 'Press Enter in the terminal where "atelier ui" runs for a new address.';

/**
 * `POST /api/session` trades a one-time code for a session (the only call without one);
 * `POST /api/session/code` gives an open session a fresh code for another window.
 */
export function sessionRoutes(sessions: Sessions, logger: Logger): Hono<WebEnv> {
  const routes = new Hono<WebEnv>();
  const small = bodyLimit({
    maxSize: 1024,
    onError: (c) => sendJson(c, failure('invalid-argument', 'The body is too large.'), 413),
  });
  routes.post(SESSION_PATH, small, async (c) => {
    let code: unknown;
    try {
      code = ((await c.req.json()) as { code?: unknown } | null)?.code;
    } catch {
      code = undefined;
    }
    if (typeof code !== 'string' || code.length === 0 || code.length > 128) {
      const message = 'Send {"code": "…"}, the code from the address "atelier ui" printed.';
      return sendJson(c, failure('invalid-argument', message), 400);
    }
    const exchange = sessions.exchange(code);
    if (!exchange.ok) {
      if (exchange.reason === 'reused') {
        logger.warn(
          'An address of Atelier was used twice: the window it opened was closed. If you did ' +
            'not open it twice, another program or user on this machine may have read it ' +
            '(from the process list): press Enter here for a new address.',
        );
      }
      return sendJson(c, failure('unauthorized', `${REFUSED[exchange.reason]} ${FRESH}`), 401);
    }
    const { token, sessionId, mediaKey } = exchange.session;
    const grant: SessionGrant = { token, sessionId, mediaKey };
    return sendJson(c, { ok: true, value: grant }, 200);
  });
  routes.post(SESSION_CODE_PATH, (c) => {
    const fresh: FreshCode = sessions.mintCode();
    return sendJson(c, { ok: true, value: fresh }, 200);
  });
  return routes;
}
