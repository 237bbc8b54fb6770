/**
 * The browser host's session (docs/security.md): a page opened at `…/#code=C` trades the
 * one-time code for a session token and a media key, keeps them in sessionStorage, sends the
 * token as `Authorization: Bearer` and signs the URLs of images, videos and downloads with the
 * key. Not part of the typed contract: the desktop has no session, and a page without one
 * cannot call the contract at all.
 */

/** `POST {"code": C}`: the code traded once for a `SessionGrant` (a Result, as every call). */
export const SESSION_PATH = '/api/session';

/** `POST` with the bearer: a fresh code for another window (`{code, expiresAt}`). */
export const SESSION_CODE_PATH = '/api/session/code';

/** What the page keeps for the life of its tab. */
export interface SessionGrant {
  /** Sent as `Authorization: Bearer <token>` on every call and on the event stream. */
  token: string;
  /** Named in signed URLs, so the host knows whose key signed them. Not a secret. */
  sessionId: string;
  /** HMAC-SHA256 key (base64url) for the URLs an `<img>`, a `<video>` or a download asks. */
  mediaKey: string;
}

export interface FreshCode {
  code: string;
  /** Milliseconds since the epoch: after it, the code opens nothing. */
  expiresAt: number;
}

/**
 * The code in an address's fragment: `#code=C` (the first screen) or `#/<screen>?code=C`.
 * Returns the code and the fragment to leave in the address without it.
 */
export function codeInFragment(hash: string): { code: string | null; rest: string } {
  const fragment = hash.replace(/^#/, '');
  const query = fragment.indexOf('?');
  const [route, params] =
    query === -1
      ? fragment.startsWith('code=')
        ? ['', fragment]
        : [fragment, '']
      : [fragment.slice(0, query), fragment.slice(query + 1)];
  const search = new URLSearchParams(params);
  const code = search.get('code');
  search.delete('code');
  const left = search.toString();
  const rest = route + (left ? `?${left}` : '');
  return { code: code || null, rest: rest ? `#${rest}` : '' };
}

/** The address that opens a new window of the app at `screen` (e.g. `/gallery`) with `code`. */
export function addressWithCode(origin: string, code: string, route = ''): string {
  return `${origin}/#${route ? `${route}?` : ''}code=${encodeURIComponent(code)}`;
}

/**
 * What a window without a session is told, by the host's refusal page and by the app alike.
 */
export const SIGNED_OUT_TITLE = 'Open Atelier from its address';
export const SIGNED_OUT_HOW =
  'Open the address that "atelier ui" printed in its terminal: it works once, within about a ' +
  'minute. For a new address, press Enter in that terminal, or use "New window" in a window ' +
  'of Atelier that is open.';
export const SIGNED_OUT_HELP = `This window is not signed in to Atelier. ${SIGNED_OUT_HOW}`;
