import { MEDIA_VERSION_PARAM } from './media-version.ts';

/**
 * Signed URLs of the browser host (docs/security.md): an `<img>`, a `<video>` or a download
 * link cannot send the session's header, so the page signs each such URL with its session's
 * media key, over the path and an expiry, and the host checks the signature.
 *
 * `/media/a/b.png?v=<version>&exp=<seconds>&sid=<session id>&sig=<HMAC-SHA256, base64url>`
 *
 * The signature covers the session, the expiry and the path exactly as the browser sends it
 * (still percent-encoded); `v` only tells the browser's caches one image from another at the
 * same path, and is not signed.
 */

export const SIGNED_PARAMS = {
  version: MEDIA_VERSION_PARAM,
  expires: 'exp',
  session: 'sid',
  signature: 'sig',
} as const;

/**
 * URLs are minted for windows of this length and stay valid one window more (1–2 hours): every
 * URL of an image made within a window is the same, so the browser's cache serves it, and a
 * video left open keeps seeking for at least an hour.
 */
export const SIGNED_URL_WINDOW_S = 3600;

/** The expiry (seconds since the epoch) of a URL minted at `nowMs`. */
export function signedUrlExpiry(nowMs: number): number {
  return (Math.floor(nowMs / 1000 / SIGNED_URL_WINDOW_S) + 2) * SIGNED_URL_WINDOW_S;
}

/** The latest expiry the host accepts at `nowMs`: one minted now, and a minute of clock skew. */
export function latestSignedUrlExpiry(nowMs: number): number {
  return signedUrlExpiry(nowMs) + 60;
}

/** The text the HMAC covers: session, expiry and the raw path, one per line. */
export function signedUrlMessage(sessionId: string, expires: number, rawPath: string): string {
  return `${sessionId}\n${expires}\n${rawPath}`;
}
