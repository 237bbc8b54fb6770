import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header.js';
import { afterEach } from 'vitest';
import { startWebHost, type WebHost, type WebHostOptions } from '../../../main/web/web-host.ts';
import { fakeApp, type FakeApp } from '../../support/fake-served-app.ts';

export const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuvwxyz';
export const INDEX_HTML =
  '<!doctype html><title>Atelier</title><script src="/assets/app.js"></script>';
export const APP_JS = 'console.log("atelier");';

/** A web host on 127.0.0.1:0 over a fake app, with a renderer folder and every log line. */
export interface TestHost {
  host: WebHost;
  app: FakeApp;
  port: number;
  /** `atelier-<port>=<token>`, as the browser would send it after the token exchange. */
  cookie: string;
  log: string[];
  libraryDir: string;
  /** Keeps the path exactly as written (no `..` removal), as a hostile client would send it. */
  pool: Pool;
  get(path: string, headers?: Record<string, string>): Promise<Reply>;
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
    token: TOKEN,
    checkOutput: true,
    logger: { info: record('info'), warn: record('warn'), error: record('error') },
    ...options,
  });
  const pool = new Pool(`http://127.0.0.1:${host.port}`);
  cleanups.push(async () => {
    await pool.destroy();
    await host.close();
  });
  const cookie = `atelier-${host.port}=${TOKEN}`;
  const send = async (
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    body?: string | Buffer,
  ): Promise<Reply> => {
    const response = await pool.request({ method, path, headers: { cookie, ...headers }, body });
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
  return {
    host,
    app,
    port: host.port,
    cookie,
    log,
    libraryDir,
    pool,
    get: (path, headers = {}) => send('GET', path, headers),
    call: (area, method, body, headers = {}) =>
      send(
        'POST',
        `/api/${area}/${method}`,
        { 'content-type': 'application/json', ...headers },
        body === undefined ? undefined : JSON.stringify(body),
      ),
  };
}
