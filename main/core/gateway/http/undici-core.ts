import { createRequire, Module } from 'node:module';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';

/**
 * undici's Agent and request(), and nothing else of it. Its index loads about 110 modules
 * (fetch, WebSocket, EventSource, caches, mocks) where these two need about 30: some 50 ms of
 * CPU at every start of the CLI, before its first request can leave. undici declares no
 * `exports`, so its files are reachable by path; the gateway tests prove these behave as the
 * index's (test/unit/gateway/undici-core.test.ts).
 */
const load = createRequire(import.meta.url);

/**
 * undici's HTTP/2 client loads node:http2 (~8 ms of CPU) when undici loads, though an Agent
 * negotiates HTTP/2 only when told to (allowH2, which Atelier never sets). Its module is
 * loaded on the first HTTP/2 connection instead: until then a stand-in takes its place in
 * require's cache, which undici's client reads.
 */
function loadHttp2ClientOnUse(): void {
  const file = load.resolve('undici/lib/dispatcher/client-h2.js');
  if (load.cache[file]) return;
  let connectH2: ((...args: unknown[]) => unknown) | null = null;
  const standIn = new Module(file);
  standIn.filename = file;
  standIn.loaded = true;
  standIn.exports = (...args: unknown[]) => {
    if (!connectH2) {
      delete load.cache[file];
      connectH2 = load(file) as (...args: unknown[]) => unknown;
    }
    return connectH2(...args);
  };
  load.cache[file] = standIn;
}
loadHttp2ClientOnUse();

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
