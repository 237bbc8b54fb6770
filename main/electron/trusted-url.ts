/** The renderer's own origin: the built UI is served from here by the `atelier` protocol. */
export const APP_SCHEME = 'atelier';
export const APP_HOST = 'app';
export const APP_INDEX_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

export interface TrustOptions {
  /** The development server's URL (electron-vite dev), only when the app is not packaged. */
  devUrl?: string | null;
}

/**
 * Whether `url` is a page of our renderer: `atelier://app/…` always, the dev server's origin
 * only when one is given. Parsed, never compared as text: `atelier://app.evil/` or
 * `atelier://x@app/` are someone else.
 */
export function isTrustedRendererUrl(url: string, options: TrustOptions = {}): boolean {
  const parsed = parse(url);
  if (!parsed) return false;
  if (
    parsed.protocol === `${APP_SCHEME}:` &&
    parsed.host === APP_HOST &&
    parsed.username === '' &&
    parsed.password === ''
  ) {
    return true;
  }
  const dev = options.devUrl ? parse(options.devUrl) : null;
  return (
    dev !== null &&
    (dev.protocol === 'http:' || dev.protocol === 'https:') &&
    parsed.origin === dev.origin &&
    parsed.username === '' &&
    parsed.password === ''
  );
}

/** The dev server's URL electron-vite sets, ignored once packaged (a packaged app has none). */
export function rendererDevUrl(isPackaged: boolean, env: NodeJS.ProcessEnv): string | null {
  if (isPackaged) return null;
  const url = env['ELECTRON_RENDERER_URL']?.trim();
  return url ? url : null;
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
