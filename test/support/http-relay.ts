import { createServer, request, type ClientRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * An HTTP relay on a port of its own in front of a browser host, as the network between a
 * window and its host: `cut` drops every connection and refuses new ones (the host stopped
 * answering, the Wi-Fi went), `restore` listens again on the same port. The host answers only
 * to its own Host and Origin, so the relay writes them as the host's.
 */
export interface HttpRelay {
  origin: string;
  /** The address `hostAddress` (a URL on the host) has through the relay. */
  through(hostAddress: string): string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startHttpRelay(hostOrigin: string): Promise<HttpRelay> {
  const host = new URL(hostOrigin);
  const sockets = new Set<Socket>();
  const upstreams = new Set<ClientRequest>();
  const server: Server = createServer((incoming, outgoing) => {
    const headers = { ...incoming.headers, host: host.host };
    if (headers.origin) headers.origin = host.origin;
    const upstream = request(
      {
        host: host.hostname,
        port: host.port,
        method: incoming.method,
        path: incoming.url,
        headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstreams.add(upstream);
    upstream.on('close', () => upstreams.delete(upstream));
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const listen = (port: number) =>
    new Promise<number>((ready) =>
      server.listen(port, '127.0.0.1', () => ready((server.address() as AddressInfo).port)),
    );
  const port = await listen(0);
  const origin = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((done) => {
      server.close(() => done());
      for (const socket of sockets) socket.destroy();
      for (const upstream of upstreams) upstream.destroy();
    });
  return {
    origin,
    through: (address) => {
      const url = new URL(address);
      return `${origin}${url.pathname}${url.search}${url.hash}`;
    },
    cut: stop,
    restore: async () => void (await listen(port)),
    close: async () => {
      if (server.listening) await stop();
    },
  };
}
