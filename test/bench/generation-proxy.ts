import { request, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy tells of each generation request: its arrival, and its answer's end. */
export interface GenerationHooks {
  arrived?: () => void;
  answered?: () => void;
}

/**
 * A proxy in this process in front of the gateway at `target`: forwards everything, and calls
 * `hooks` as each generation request arrives and as its answer ends, so a bench times the
 * requests of another process at the gateway's door. Resolves once it listens on 127.0.0.1.
 */
export async function startGenerationProxy(
  target: URL,
  hooks: GenerationHooks,
  options: { keepAliveMs?: number } = {},
): Promise<{ url: string; close(): void }> {
  const proxy = createServer((incoming: IncomingMessage, answer: ServerResponse) => {
    const generation = incoming.url?.includes('/images/generations') ?? false;
    if (generation) hooks.arrived?.();
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (response) => {
        answer.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(answer);
        if (generation) answer.on('finish', () => hooks.answered?.());
      },
    );
    outgoing.on('error', () => answer.destroy());
    incoming.pipe(outgoing);
  });
  if (options.keepAliveMs !== undefined) proxy.keepAliveTimeout = options.keepAliveMs;
  await new Promise<void>((ready) => proxy.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close: () => proxy.close(),
  };
}
