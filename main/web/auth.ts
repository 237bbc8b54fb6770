import type { Context, MiddlewareHandler } from 'hono';
import { SESSION_PATH } from '../../shared/api/session.ts';
import { rawPath } from './guards.ts';
import { failure } from './http-status.ts';
import { refusalPage } from './refusal-page.ts';
import { sendJson } from './respond.ts';
import type { Sessions } from './sessions.ts';
import { checkSignedUrl } from './signed-url.ts';
import type { WebEnv } from './web-env.ts';

export type Access = 'public' | 'signed-or-bearer' | 'bearer';

/**
 * What a request needs. Public: the page and its scripts (they hold no secret; the page then
 * opens a session) and the code exchange. Signed URLs: what an `<img>`, a `<video>` or a
 * download link asks, which cannot send a header. Everything else, new routes included: the
 * session's bearer token.
 */
export function accessOf(method: string, path: string): Access {
  const read = method === 'GET' || method === 'HEAD';
  if (read && (path === '/' || path === '/index.html' || path.startsWith('/assets/'))) {
    return 'public';
  }
  if (method === 'POST' && path === SESSION_PATH) return 'public';
  if (read && /^\/(media|thumbs|exports)\//.test(path)) return 'signed-or-bearer';
  return 'bearer';
}

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+([A-Za-z0-9_-]{16,128})\s*$/i.exec(header ?? '');
  return match ? match[1]! : null;
}

const NO_SESSION =
  'This request has no Atelier session: open Atelier from the address "atelier ui" printed ' +
  '(press Enter in its terminal for a new one).';

/**
 * Every request but the public ones needs an open session: its bearer token, or a URL signed
 * with its media key. Cookies are never read: whatever another server on this machine sets
 * for 127.0.0.1 (cookies ignore ports) neither opens nor closes anything here.
 */
export function auth(sessions: Sessions, now: () => number = Date.now): MiddlewareHandler<WebEnv> {
  return async (c, next) => {
    const path = rawPath(c);
    const access = accessOf(c.req.method, path);
    if (access === 'public') return next();
    const token = bearerToken(c.req.header('authorization'));
    const session = token === null ? undefined : sessions.byToken(token);
    if (session) {
      c.set('session', session);
      return next();
    }
    if (access === 'signed-or-bearer') {
      const signed = checkSignedUrl(sessions, path, (name) => c.req.query(name), now());
      if (signed.ok) {
        c.set('signedUntil', signed.expires);
        return next();
      }
      if (token === null) return refuse(c, `This link is ${signed.why}: ${NO_SESSION}`);
    }
    return refuse(c, NO_SESSION);
  };
}

/** 401: a person's page for a browser window, the contract's JSON for the app's calls. */
function refuse(c: Context<WebEnv>, message: string) {
  c.header('WWW-Authenticate', 'Bearer realm="Atelier"');
  if (isNavigation(c)) return refusalPage(c, 401);
  return sendJson(c, failure('unauthorized', message), 401);
}

/** A window opening the address (typed, a link, a bookmark), not a script's call. */
export function isNavigation(c: Context<WebEnv>): boolean {
  const mode = c.req.header('sec-fetch-mode');
  if (mode !== undefined) return mode === 'navigate';
  return (c.req.header('accept') ?? '').includes('text/html');
}
