import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { buildWebApp } from './web-app.ts';
import type { WebHostOptions } from './web-options.ts';

export { newToken } from './auth.ts';

export type { WebHostOptions };

export interface WebHost {
  /** `http://127.0.0.1:<port>/`, without the token: append `?token=…` for the person. */
  url: string;
  port: number;
  /** Ends open event streams and stops listening; the app itself stays open (its owner closes it). */
  close(): Promise<void>;
}

/** Serves the contract, its events, the library's media and the page, on loopback only. */
export async function startWebHost(o: WebHostOptions): Promise<WebHost> {
  let handle: ((request: Request, env: never) => Response | Promise<Response>) | null = null;
  const server = createAdaptorServer({
    // the port is known only once listening, and the guards need it
    fetch: (request, env) => handle?.(request, env as never) ?? new Response(null, { status: 503 }),
  }) as Server;
  const port = await listen(server, o.port ?? 0);
  const streams = new Set<() => void>();
  handle = buildWebApp(o, port, streams).fetch;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
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
