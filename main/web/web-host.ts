import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { addressWithCode } from '../../shared/api/session.ts';
import { Sessions } from './sessions.ts';
import { buildWebApp } from './web-app.ts';
import type { WebHostOptions } from './web-options.ts';

export type { WebHostOptions };

export interface WebHost {
  /** `http://127.0.0.1:<port>/`: the page, which opens nothing without a code. */
  url: string;
  port: number;
  /**
   * An address that opens the app once (`http://127.0.0.1:<port>/#code=…`): its code is
   * single-use and expires in about a minute. `route` opens a screen (`/gallery`).
   */
  newAddress(route?: string): string;
  /** Ends open event streams and stops listening; the app itself stays open (its owner closes it). */
  close(): Promise<void>;
}

/** Chromium sends at most 180 cookies of 4 KB for a host: about 740 KB. */
const MAX_HEADER_BYTES = 1024 * 1024;

/** Serves the contract, its events, the library's media and the page, on loopback only. */
export async function startWebHost(o: WebHostOptions): Promise<WebHost> {
  let handle: ((request: Request, env: never) => Response | Promise<Response>) | null = null;
  const server = createAdaptorServer({
    // the port is known only once listening, and the guards need it
    fetch: (request, env) => handle?.(request, env as never) ?? new Response(null, { status: 503 }),
    // cookies are ignored, but another local server can set hundreds of kilobytes of them for
    // 127.0.0.1 (cookies ignore ports): Node's 16 KB limit would answer 431 and lock us out
    serverOptions: { maxHeaderSize: MAX_HEADER_BYTES },
  }) as Server;
  const port = await listen(server, o.port ?? 0);
  const streams = new Set<() => void>();
  const sessions = new Sessions({ now: o.now });
  handle = buildWebApp(o, port, sessions, streams).fetch;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/`,
    port,
    newAddress: (route) => addressWithCode(origin, sessions.mintCode().code, route),
    async close() {
      for (const stop of [...streams]) stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${port} is in use: choose another, or 0 for a free one.`)
          : error,
      );
    });
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}
