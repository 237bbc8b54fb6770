import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGatewayClient, type GatewayClient } from '../../main/core/gateway/client.ts';
import type { GatewayContextOptions } from '../../main/core/gateway/context.ts';
import { Engine, type EngineOptions } from '../../main/core/engine/engine.ts';
import { openStore, type Store } from '../../main/core/store/store.ts';
import type { GatewayProfileInput } from '../../shared/gateway/profile.ts';
import { baseJob, FAST_BACKOFF } from './engine-harness.ts';

/**
 * A gateway that misbehaves on purpose: a plain node:http server on 127.0.0.1 whose every
 * answer the test writes. It records what reached it, so a test can count requests.
 */
export interface HostileGateway {
  url: string;
  /** Method and path of every request that reached the server, in order. */
  requests: string[];
  /** Answers still open (a stalled body): ended by close(). */
  close(): Promise<void>;
}

export type HostileHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  gateway: { url: string; hits: (path: string) => number },
) => void;

export async function startHostileGateway(handler: HostileHandler): Promise<HostileGateway> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    // a client that gives up on a stalled body must not leave an unhandled error here
    response.on('error', () => {});
    request.resume();
    handler(request, response, {
      url,
      hits: (path) => requests.filter((line) => line.endsWith(` ${path}`)).length,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An image answer (interface 2.5) naming links, as a gateway's default url format does. */
export function linkAnswer(response: ServerResponse, links: string[], requestId = 'req_hostile') {
  response.writeHead(200, { 'content-type': 'application/json', 'x-svc-request-id': requestId });
  response.end(JSON.stringify({ created: 1, data: links.map((url) => ({ url })) }));
}

/**
 * A gateway whose first answer links an HTML page and a picture, and every later answer one
 * picture: an image whose link gives no image, and what asking for it again brings.
 * `generations()` counts the generation requests.
 */
export function htmlThenPictures(png: Buffer): {
  handler: HostileHandler;
  generations: () => number;
} {
  let generations = 0;
  return {
    generations: () => generations,
    handler: (req, res, { url }) => {
      if (req.method === 'POST') {
        generations++;
        const links = generations === 1 ? ['page.html', 'good.png'] : ['again.png'];
        return linkAnswer(
          res,
          links.map((name) => `${url}/files/${name}`),
        );
      }
      const html = req.url === '/files/page.html';
      res.writeHead(200, { 'content-type': html ? 'text/html' : 'image/png' });
      res.end(html ? '<html>Please log in</html>' : png);
    },
  };
}

/** An image answer carrying the bytes as base64. */
export function b64Answer(response: ServerResponse, images: Buffer[], requestId = 'req_hostile') {
  response.writeHead(200, { 'content-type': 'application/json', 'x-svc-request-id': requestId });
  response.end(
    JSON.stringify({ created: 1, data: images.map((b) => ({ b64_json: b.toString('base64') })) }),
  );
}

/** An engine on a fresh store, talking to a hostile gateway (no simulator). */
export interface HostileRig {
  dir: string;
  libraryDir: string;
  store: Store;
  client: GatewayClient;
  engine: Engine;
  gateway: HostileGateway;
  /** A batch of `count` image jobs (flux-schnell, 16x16). */
  batch(count: number): number;
  close(): Promise<void>;
}

export async function hostileRig(
  handler: HostileHandler,
  options: {
    engine?: Partial<EngineOptions>;
    client?: Partial<GatewayContextOptions>;
    profile?: Omit<GatewayProfileInput, 'baseUrl'>;
  } = {},
): Promise<HostileRig> {
  const gateway = await startHostileGateway(handler);
  const dir = mkdtempSync(join(tmpdir(), 'atelier-hostile-'));
  const libraryDir = join(dir, 'library');
  const store = openStore(join(dir, 'atelier.db'));
  const client = createGatewayClient({
    apiKey: 'sk-hostile-0000',
    ...options.client,
    profile: { ...options.profile, baseUrl: gateway.url },
  });
  const engine = new Engine({
    store,
    client,
    libraryDir,
    concurrency: 2,
    backoff: FAST_BACKOFF,
    downloadBackoff: FAST_BACKOFF,
    ...options.engine,
  });
  await engine.start();
  return {
    dir,
    libraryDir,
    store,
    client,
    engine,
    gateway,
    batch(count) {
      const jobs = Array.from({ length: count }, (_, i) => baseJob(i + 1));
      return store.batches.create({ name: `hostile ${Date.now()}` }, jobs, Date.now()).id;
    },
    async close() {
      await engine.stop({ abort: true }).catch(() => {});
      await gateway.close();
      await client.close();
      if (store.db.open) store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
