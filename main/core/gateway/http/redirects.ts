import { header } from '../classify/headers.ts';
import type { SendOptions, SendRequest, SentAnswer } from './transport.ts';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** As many as fetch follows before giving up. */
const MAX_REDIRECTS = 20;
const WEB_SCHEMES = new Set(['http:', 'https:']);

/** A redirect to an address that is not http or https (`file:`, `ftp:`…): never followed. */
export class RedirectRefused extends Error {
  readonly scheme: string;
  /** The redirect's own headers: they may name the request id. */
  readonly headers: SentAnswer['headers'];

  constructor(scheme: string, headers: SentAnswer['headers']) {
    super(`a redirect to a ${scheme} address was not followed`);
    this.name = 'RedirectRefused';
    this.scheme = scheme;
    this.headers = headers;
  }
}

export interface Outgoing extends Omit<SendOptions, 'headers'> {
  url: URL;
  /** Headers for any host. */
  headers: Record<string, string>;
  /** The same plus the key and the profile's extra headers, for the gateway's origin only. */
  gatewayHeaders: Record<string, string> | null;
}

/**
 * Sends a request and follows redirects the way fetch did (undici's request() does not; file
 * links often point at a storage host through one). 303, and 301/302 after a POST, become a
 * GET without a body; 307/308 repeat the request. Each hop gets `gatewayHeaders` only if it
 * goes to `gatewayOrigin`: a redirect elsewhere never carries the key. After too many hops the
 * last redirect is returned as the answer. A redirect off the web throws RedirectRefused.
 */
export async function sendFollowingRedirects(
  send: SendRequest,
  first: Outgoing,
  gatewayOrigin: string,
): Promise<SentAnswer> {
  let outgoing = first;
  for (let hop = 0; ; hop++) {
    const { url, headers, gatewayHeaders, ...options } = outgoing;
    const toGateway = gatewayHeaders !== null && url.origin === gatewayOrigin;
    const answer = await send(url, { ...options, headers: toGateway ? gatewayHeaders : headers });
    const location = REDIRECT_STATUSES.has(answer.statusCode)
      ? header(answer.headers, 'location')
      : null;
    if (location === null || hop === MAX_REDIRECTS) return answer;
    // The redirect's own body is never read; destroying it frees the connection.
    answer.body.on('error', () => {}).destroy();
    const next = new URL(location, url);
    if (!WEB_SCHEMES.has(next.protocol)) throw new RedirectRefused(next.protocol, answer.headers);
    outgoing = nextHop(outgoing, answer.statusCode, next);
  }
}

function nextHop(previous: Outgoing, status: number, url: URL): Outgoing {
  const keepsMethod = status === 307 || status === 308 || previous.method === 'GET';
  if (keepsMethod) return { ...previous, url };
  return {
    ...previous,
    url,
    method: 'GET',
    body: undefined,
    headers: withoutContentType(previous.headers),
    gatewayHeaders: previous.gatewayHeaders && withoutContentType(previous.gatewayHeaders),
  };
}

function withoutContentType(headers: Record<string, string>): Record<string, string> {
  const { 'content-type': _dropped, ...rest } = headers;
  return rest;
}
