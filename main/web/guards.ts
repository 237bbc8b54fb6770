import type { MiddlewareHandler } from 'hono';
import type { WebEnv } from './web-env.ts';
import { sendJson } from './respond.ts';
import { failure } from './http-status.ts';

/** The only hosts this server answers to: anything else is a DNS-rebinding page. */
export function isLoopbackHost(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  const h = host.toLowerCase();
  return h === `127.0.0.1:${port}` || h === `localhost:${port}`;
}

/** An `Origin` header, when a browser sends one, must be this server's own. */
export function isOwnOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  const o = origin.toLowerCase();
  return o === `http://127.0.0.1:${port}` || o === `http://localhost:${port}`;
}

/** Calls and the event stream come from our page only (absent: not a browser, or an old one). */
export function isSameOriginFetch(site: string | undefined): boolean {
  return site === undefined || site.toLowerCase() === 'same-origin';
}

/** Whether a raw request path has a `.` or `..` segment, plain or percent-encoded. */
export function hasDotSegment(rawPath: string): boolean {
  return rawPath.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
}

/**
 * The path as the client wrote it, still percent-encoded, without query: URL parsing would
 * already have removed `..` segments, and decoding would hide an encoded `/`.
 */
export function rawPath(c: { env: WebEnv['Bindings'] | undefined; req: { url: string } }): string {
  let target = c.env?.incoming?.url ?? c.req.url;
  if (!target.startsWith('/')) {
    // absolute form (a proxy's request line, or the parsed URL): drop scheme and authority
    const authority = target.indexOf('://');
    const slash = authority === -1 ? -1 : target.indexOf('/', authority + 3);
    target = slash === -1 ? '/' : target.slice(slash);
  }
  return target.split(/[?#]/, 1)[0]!;
}

/** Refuses what did not come from our own page on this machine, before anything else runs. */
export function guards(port: number): MiddlewareHandler<WebEnv> {
  return async (c, next) => {
    if (!isLoopbackHost(c.req.header('host'), port)) {
      const message = `This server answers only to 127.0.0.1:${port} or localhost:${port}.`;
      return sendJson(c, failure('forbidden', message), 421);
    }
    if (!isOwnOrigin(c.req.header('origin'), port)) {
      return sendJson(c, failure('forbidden', 'Requests from other sites are refused.'), 403);
    }
    const guarded = c.req.method === 'POST' || c.req.path.startsWith('/api/');
    if (guarded && !isSameOriginFetch(c.req.header('sec-fetch-site'))) {
      return sendJson(c, failure('forbidden', "Only Atelier's own page may call its API."), 403);
    }
    if (hasDotSegment(rawPath(c))) {
      return sendJson(c, failure('not-found', 'Paths with "." or ".." segments are refused.'), 404);
    }
    await next();
  };
}
