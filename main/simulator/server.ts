import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { GatewayState, RequestContext, Route } from './context.ts';
import { ApiError, sendError, sendTaskError } from './http.ts';
import { latencyFor, wait } from './latency.ts';

/** Statuses the server answers by itself, before any work: nothing is charged for them. */
const EARLY_FAULTS: Record<string, () => ApiError> = {
  '500': () =>
    new ApiError(500, 'server_error', 'internal_error', 'Internal server error. Try again.'),
  '502': () =>
    new ApiError(
      502,
      'server_error',
      'bad_gateway',
      'Bad gateway: the upstream answered badly. Try again.',
    ),
  '503': () =>
    new ApiError(
      503,
      'server_error',
      'service_unavailable',
      'Service temporarily unavailable. Try again.',
    ),
};

export interface GatewayServer {
  server: Server;
  /** Resolves when no request is being handled (tests wait for it before reading the ledger). */
  idle(): Promise<void>;
}

export function createGatewayServer(state: GatewayState, routes: Route[]): GatewayServer {
  let inFlight = 0;
  let waiters: Array<() => void> = [];
  const settle = () => {
    if (--inFlight === 0) {
      const ready = waiters;
      waiters = [];
      for (const resolve of ready) resolve();
    }
  };

  const server = createServer((req, res) => {
    inFlight++;
    handle(state, routes, req, res)
      .catch((error: unknown) => {
        // A bug in a handler: answer 500 rather than hang, and say so on stderr.
        console.error('[gateway] unhandled error:', error);
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      })
      .finally(settle);
  });
  // Clients keep connections alive between requests; keep them open long enough to reuse.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 0;

  return {
    server,
    idle: () =>
      inFlight === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve)),
  };
}

let sequence = 0;
const processTag = randomBytes(4).toString('hex');

function nextRequestId(): string {
  return `req_${processTag}${(++sequence).toString(16).padStart(8, '0')}`;
}

async function handle(
  state: GatewayState,
  routes: Route[],
  req: IncomingMessage,
  res: ServerResponse,
) {
  const arrivedAt = performance.now();
  const requestId = nextRequestId();
  res.setHeader(state.options.requestIdHeader, requestId);
  const url = new URL(req.url ?? '/', state.baseUrl);
  const aborter = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) aborter.abort();
  });

  const ctx: RequestContext = {
    req,
    res,
    url,
    requestId,
    params: [],
    key: null,
    state,
    fault: null,
    slowBodyMs: state.options.slowBodyMs,
    signal: aborter.signal,
    // The latency counts from the request's arrival, so work done before waiting (rendering)
    // is part of it, as on a real upstream.
    work: (units) =>
      wait(
        arrivedAt + latencyFor(state.options.latency, units, state.random) - performance.now(),
        aborter.signal,
      ),
  };

  let route: Route | undefined;
  try {
    route = findRoute(routes, req.method ?? 'GET', url.pathname, ctx);
    if (route.auth) ctx.key = state.keys.authenticate(req.headers.authorization);
    if (route.faults) ctx.fault = state.faults.pick(route.faults);

    if (ctx.fault === '429') {
      const seconds = state.options.retryAfterSeconds;
      drain(req);
      throw new ApiError(
        429,
        'rate_limit_error',
        'rate_limit_exceeded',
        `Rate limit reached. Retry after ${seconds} s, and lower the number of requests in flight.`,
        { headers: { 'Retry-After': String(seconds), 'retry-after-ms': String(seconds * 1000) } },
      );
    }
    const early = ctx.fault ? EARLY_FAULTS[ctx.fault] : undefined;
    if (early) {
      drain(req);
      await ctx.work(0);
      throw early();
    }
    await route.handler(ctx);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (res.headersSent || res.destroyed) return;
    await (route?.errors === 'task' ? sendTaskError : sendError)(ctx, error);
  }
}

function findRoute(routes: Route[], method: string, path: string, ctx: RequestContext): Route {
  let pathMatched = false;
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    pathMatched = true;
    if (route.method !== method) continue;
    ctx.params = match.slice(1).map((p) => decodeURIComponent(p ?? ''));
    return route;
  }
  if (pathMatched) {
    throw new ApiError(
      405,
      'invalid_request_error',
      'method_not_allowed',
      `${method} is not allowed on ${path}.`,
    );
  }
  throw new ApiError(
    404,
    'invalid_request_error',
    'not_found',
    `No endpoint at ${method} ${path}.`,
  );
}

/** Consumes an unread request body so the connection stays usable for the next request. */
function drain(req: IncomingMessage): void {
  req.resume();
}
