import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';

/**
 * undici's Agent and request(), and nothing else of it. Its index loads about 110 modules
 * (fetch, WebSocket, EventSource, caches, mocks) where these two need about 30: some 50 ms of
 * CPU at every start of the CLI, before its first request can leave. undici declares no
 * `exports`, so its files are reachable by path; the gateway tests prove these behave as the
 * index's (test/unit/gateway/undici-core.test.ts).
 */
const load = createRequire(import.meta.url);

export const Agent = load('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;

type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & {
  dispatcher: Dispatcher;
};

const dispatcherRequest = load('undici/lib/api/api-request.js') as (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;

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
