import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header.js';
import { afterEach } from 'vitest';
import { startWebHost, type WebHost, type WebHostOptions } from '../../../main/web/web-host.ts';
import { signedPath } from '../../../main/web/signed-url.ts';
import type { SessionGrant } from '../../../shared/api/session.ts';
import { signedUrlExpiry } from '../../../shared/api/signed-url.ts';
import { fakeApp, type FakeApp } from '../../support/fake-served-app.ts';
import { openSession } from '../../support/web-login.ts';
export const INDEX_HTML =
  '<!doctype html><title>Atelier</title><script src="/assets/app.js"></script>';
export const APP_JS = 'console.log("atelier");';

/** A web host on 127.0.0.1:0 over a fake app, with a renderer folder and every log line. */
export interface TestHost {
  host: WebHost;
  app: FakeApp;
  port: number;
  /** The session the harness opened with a code, as the page does. */
  grant: SessionGrant;
  /** `Bearer <token>`: sent on every request unless a test gives its own `authorization`. */
  authorization: string;
  /** `path` signed with the session's media key, as the page signs an `<img>`'s URL. */
  signed(path: string, o?: { expires?: number; version?: string }): string;
  log: string[];
  libraryDir: string;
  /** Keeps the path exactly as written (no `..` removal), as a hostile client would send it. */
  pool: Pool;
  get(path: string, headers?: Record<string, string>): Promise<Reply>;
  /** POST `body` as JSON to `path`. */
  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  call(
    area: string,
    method: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Reply>;
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export async function startTestHost(
  options: Partial<Omit<WebHostOptions, 'app'>> & { leak?: string; libraryDir?: string } = {},
): Promise<TestHost> {
  const root = await mkdtemp(join(tmpdir(), 'atelier-web-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const rendererDir = join(root, 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), INDEX_HTML);
  await writeFile(join(rendererDir, 'assets', 'app.js'), APP_JS);
  const libraryDir = options.libraryDir ?? join(root, 'library');
  await mkdir(libraryDir, { recursive: true });
  const app = fakeApp({ libraryDir, leak: options.leak });
  const log: string[] = [];
  const record =
    (level: string) =>
    (message: string, ...details: unknown[]) =>
      log.push([level, message, ...details.map((d) => JSON.stringify(d))].join(' '));
  const host = await startWebHost({
    app,
    rendererDir,
    checkOutput: true,
    logger: { info: record('info'), warn: record('warn'), error: record('error') },
    ...options,
  });
  const pool = new Pool(`http://127.0.0.1:${host.port}`);
  cleanups.push(async () => {
    await pool.destroy();
    await host.close();
  });
  const grant = await openSession(host.newAddress());
  const authorization = `Bearer ${grant.token}`;
  const send = async (
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    body?: string | Buffer,
  ): Promise<Reply> => {
    const response = await pool.request({
      method,
      path,
      headers: { authorization, ...headers },
      body,
    });
    const bytes = Buffer.from(await response.body.arrayBuffer());
    const text = bytes.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.statusCode, headers: response.headers, body: bytes, text, json };
  };
  const post = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
    send(
      'POST',
      path,
      { 'content-type': 'application/json', ...headers },
      body === undefined ? undefined : JSON.stringify(body),
    );
  return {
    host,
    app,
    port: host.port,
    grant,
    authorization,
    signed: (path, o = {}) =>
      signedPath(grant, path, o.expires ?? signedUrlExpiry(Date.now()), o.version),
    log,
    libraryDir,
    pool,
    get: (path, headers = {}) => send('GET', path, headers),
    post,
    call: (area, method, body, headers = {}) => post(`/api/${area}/${method}`, body, headers),
  };
}

/** One SSE message as read off the wire: a delivery (`id`, `data`) or a comment. */
export interface SseMessage {
  id?: string;
  data?: string;
  comment?: string;
}

export interface SseStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** The next message; waits for it. */
  next(): Promise<SseMessage>;
  /** The next delivery, skipping keep-alive comments. */
  nextEvents(): Promise<{ id: string | undefined; events: Array<{ type: string }> }>;
  close(): void;
}

/** Opens `/api/events` on its own connection (a long request would hold a shared one). */
export async function openEvents(
  t: TestHost,
  o: { query?: string; lastEventId?: string; authorization?: string } = {},
): Promise<SseStream> {
  const client = new Pool(`http://127.0.0.1:${t.port}`, { connections: 1 });
  const headers: Record<string, string> = {
    authorization: o.authorization ?? t.authorization,
    accept: 'text/event-stream',
  };
  if (o.lastEventId !== undefined) headers['last-event-id'] = o.lastEventId;
  const response = await client.request({
    method: 'GET',
    path: `/api/events${o.query ?? ''}`,
    headers,
  });
  const chunks = response.body[Symbol.asyncIterator]();
  let buffer = '';
  const next = async (): Promise<SseMessage> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        return parseBlock(block);
      }
      const chunk = await chunks.next();
      if (chunk.done) throw new Error('The event stream ended.');
      buffer += Buffer.from(chunk.value).toString('utf8');
    }
  };
  const close = () => {
    response.body.destroy();
    void client.destroy();
  };
  cleanups.push(async () => close());
  return {
    status: response.statusCode,
    headers: response.headers,
    next,
    async nextEvents() {
      for (;;) {
        const message = await next();
        if (message.data !== undefined) {
          return { id: message.id, events: JSON.parse(message.data) };
        }
      }
    },
    close,
  };
}

function parseBlock(block: string): SseMessage {
  const message: SseMessage = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) message.comment = line.slice(1).trim();
    else if (line.startsWith('id: ')) message.id = line.slice(4);
    else if (line.startsWith('data: ')) message.data = (message.data ?? '') + line.slice(6);
  }
  return message;
}
