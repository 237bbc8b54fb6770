import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  latestSignedUrlExpiry,
  SIGNED_PARAMS,
  signedUrlMessage,
} from '../../shared/api/signed-url.ts';
import type { Sessions } from './sessions.ts';

/** The signature of `rawPath` until `expires` with a session's media key (the page's way). */
export function signature(
  mediaKey: string,
  sessionId: string,
  expires: number,
  rawPath: string,
): string {
  return createHmac('sha256', Buffer.from(mediaKey, 'base64url'))
    .update(signedUrlMessage(sessionId, expires, rawPath))
    .digest('base64url');
}

/** `rawPath` with the query that signs it: what the page builds (tests, benchmarks). */
export function signedPath(
  session: { mediaKey: string; sessionId: string },
  rawPath: string,
  expires: number,
  version?: string,
): string {
  const query = new URLSearchParams();
  if (version !== undefined) query.set(SIGNED_PARAMS.version, version);
  query.set(SIGNED_PARAMS.expires, String(expires));
  query.set(SIGNED_PARAMS.session, session.sessionId);
  query.set(
    SIGNED_PARAMS.signature,
    signature(session.mediaKey, session.sessionId, expires, rawPath),
  );
  return `${rawPath}?${query}`;
}

export type SignedUrlCheck = { ok: true; expires: number } | { ok: false; why: string };

/**
 * Whether a URL's query signs its raw path for a session that is open, and has not expired
 * (nor expires further ahead than a page would ever sign).
 */
export function checkSignedUrl(
  sessions: Sessions,
  rawPath: string,
  query: (name: string) => string | undefined,
  nowMs: number,
): SignedUrlCheck {
  const sessionId = query(SIGNED_PARAMS.session);
  const given = query(SIGNED_PARAMS.signature);
  const expiresText = query(SIGNED_PARAMS.expires);
  if (sessionId === undefined || given === undefined || expiresText === undefined) {
    return { ok: false, why: 'not signed' };
  }
  const session = sessions.byId(sessionId);
  if (!session) return { ok: false, why: 'its session has ended' };
  const expires = /^\d{1,12}$/.test(expiresText) ? Number(expiresText) : NaN;
  if (!(expires * 1000 > nowMs)) return { ok: false, why: 'expired' };
  if (expires > latestSignedUrlExpiry(nowMs)) return { ok: false, why: 'expires too late' };
  const expected = Buffer.from(signature(session.mediaKey, sessionId, expires, rawPath));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    return { ok: false, why: 'its signature is wrong' };
  }
  return { ok: true, expires };
}
