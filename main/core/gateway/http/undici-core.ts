// (first: it must run before undici's files load)
import './undici-http2-on-use.ts';
import type { Dispatcher } from 'undici';
import dispatcherRequest from 'undici/lib/api/api-request.js';
import UndiciAgent from 'undici/lib/dispatcher/agent.js';

/**
 * undici's Agent and request(), and nothing else of it. Its index loads about 110 modules
 * (fetch, WebSocket, EventSource, caches, mocks) where these two need about 30: some 50 ms of
 * CPU at every start of the CLI, before its first request can leave. undici declares no
 * `exports`, so its files are reachable by path (typed in undici-files.d.ts), and a bundler
 * can follow them: the CLI's bundle carries them. The gateway tests prove these behave as the
 * index's (test/unit/gateway/undici-core.test.ts).
 */
export const Agent = UndiciAgent;

type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & {
  dispatcher: Dispatcher;
};

/** As undici's request(url, options), always through `options.dispatcher`. */
export function request(
  url: URL,
  { dispatcher, ...options }: RequestOptions,
): Promise<Dispatcher.ResponseData> {
  return dispatcherRequest.call(dispatcher, {
    ...options,
    origin: url.origin,
    path: url.search ? `${url.pathname}${url.search}` : url.pathname,
  });
}
