import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';
import { failure } from './http-status.ts';
import { sendJson } from './respond.ts';
import type { WebEnv } from './web-env.ts';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/** On every response, errors and redirects included: the page runs our scripts only. */
export const securityHeaders: MiddlewareHandler<WebEnv> = async (c, next) => {
  await next();
  c.res.headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  c.res.headers.set('Referrer-Policy', 'no-referrer'); // the token never leaks in a Referer
  c.res.headers.set('X-Content-Type-Options', 'nosniff');
};

/**
 * The built renderer: its files as they are, and `index.html` for `/` and every other path
 * (the page routes on its own). API paths never reach here.
 */
export function staticRoutes(rendererDir: string): Hono<WebEnv> {
  const routes = new Hono<WebEnv>();
  routes.use('*', async (c, next) => {
    await next();
    // the page is small and names hashed assets: always ask whether it changed
    if (c.res.headers.get('content-type')?.startsWith('text/html')) {
      c.res.headers.set('Cache-Control', 'no-cache');
    }
  });
  const files = serveStatic<WebEnv>({ root: rendererDir });
  const page = serveStatic<WebEnv>({ root: rendererDir, path: 'index.html' });
  routes.get('*', files, page, (c) => {
    const message = `The page is not built (no index.html in ${rendererDir}): run "npm run build".`;
    return sendJson(c, failure('not-found', message), 404);
  });
  return routes;
}
