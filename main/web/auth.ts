import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { failure } from './http-status.ts';
import { sendJson } from './respond.ts';
import type { WebEnv } from './web-env.ts';

/** A fresh secret for one run of the web host. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Cookies are not scoped by port: the name carries it, so two hosts never share one. */
export function cookieName(port: number): string {
  return `atelier-${port}`;
}

/** Constant-time, whatever the lengths (digests are compared, never the strings). */
export function tokensEqual(given: string, token: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

const UNAUTHORIZED =
  'This page needs the address "atelier ui" printed, with its token; ' +
  'open that address again (or restart "atelier ui" for a new one).';

/**
 * `GET /?token=…` trades the token for an HttpOnly cookie and redirects to the same address
 * without it (so it stays out of history and Referer); every other request needs the cookie.
 */
export function auth(token: string, port: number): MiddlewareHandler<WebEnv> {
  const name = cookieName(port);
  return async (c, next) => {
    const given = c.req.query('token');
    if (c.req.method === 'GET' && c.req.path === '/' && given !== undefined) {
      if (!tokensEqual(given, token)) {
        return sendJson(c, failure('unauthorized', UNAUTHORIZED), 401);
      }
      setCookie(c, name, token, { httpOnly: true, sameSite: 'Strict', path: '/' });
      c.header('Cache-Control', 'no-store');
      return c.redirect(withoutToken(c.req.url), 303);
    }
    const cookie = getCookie(c, name);
    if (cookie === undefined || !tokensEqual(cookie, token)) {
      return sendJson(c, failure('unauthorized', UNAUTHORIZED), 401);
    }
    await next();
  };
}

/** The path and query of `url` without its `token` parameter. */
export function withoutToken(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.delete('token');
  return parsed.pathname + parsed.search;
}
