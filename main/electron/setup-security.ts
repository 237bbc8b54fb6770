import { app, session, shell, type Session, type WebContents } from 'electron';
import type { Logger } from '../core/logger.ts';
import { isTrustedRendererUrl, type TrustOptions } from './trusted-url.ts';

/**
 * The renderer's Content Security Policy. `atelier:` lets images and videos come from the
 * media protocol (`atelier://media/…`, `atelier://thumbs/…`), which is another origin than
 * the page's `atelier://app`. renderer/index.html repeats it in a meta tag (for the web host
 * and the dev server), less `frame-ancestors`, which a meta tag cannot set.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: atelier:",
  "media-src 'self' atelier:",
  // the gallery fetches thumbnails to decode them off the main thread (thumb-bitmaps.ts)
  "connect-src 'self' atelier:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Opens `url` in the person's browser if, parsed, it is https; anything else (http, file:,
 * javascript:, a custom scheme that could start a program) is refused. True when opened.
 */
export function openExternalHttps(url: string, logger?: Logger): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    logger?.warn(`refused to open a link that is not a URL: ${JSON.stringify(url.slice(0, 200))}`);
    return false;
  }
  if (parsed.protocol !== 'https:') {
    logger?.warn(`refused to open a ${parsed.protocol} link outside Atelier: only https opens`);
    return false;
  }
  void shell.openExternal(parsed.href).catch((error: unknown) => {
    logger?.warn(`the system could not open ${parsed.href}`, error);
  });
  return true;
}

/**
 * Every web contents Atelier ever creates is locked down as it is created: it cannot
 * navigate away from our renderer, open windows (https links go to the browser instead),
 * attach a <webview>, or be granted a permission (camera, notifications, geolocation…);
 * every response carries the CSP. Electron's security checklist, items 4, 5, 7, 12-15.
 */
export function setupSecurity(options: TrustOptions & { logger?: Logger } = {}): void {
  const { logger } = options;
  const locked = new WeakSet<Session>();
  lockSession(session.defaultSession, locked);
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isTrustedRendererUrl(url, options)) {
        event.preventDefault();
        logger?.warn(`refused to navigate the window away to ${describe(url)}`);
      }
    });
    contents.setWindowOpenHandler(({ url }) => {
      openExternalHttps(url, logger);
      return { action: 'deny' };
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    lockSession(contents.session, locked);
  });
}

function lockSession(target: Session, locked: WeakSet<Session>): void {
  if (locked.has(target)) return;
  locked.add(target);
  target.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  target.setPermissionCheckHandler(() => false);
  target.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCsp(details.responseHeaders ?? {}) });
  });
}

/** The headers with our CSP, replacing any the response had (whatever its spelling). */
export function withCsp(headers: Record<string, string[]>): Record<string, string[]> {
  const kept = Object.fromEntries(
    Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-security-policy'),
  );
  return { ...kept, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] };
}

/** A URL for a log line: its origin only, so a token in a query never lands in a log. */
function describe(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? `${parsed.protocol}…` : parsed.origin;
  } catch {
    return 'a malformed URL';
  }
}
