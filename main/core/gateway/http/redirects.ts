import { header } from '../classify/headers.ts';
import type { SendOptions, SendRequest, SentAnswer } from './transport.ts';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** As many as fetch follows before giving up. */
const MAX_REDIRECTS = 20;

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
 * last redirect is returned as the answer.
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
    outgoing = nextHop(outgoing, answer.statusCode, new URL(location, url));
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
