import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { rolldown } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyUndiciHttp2 } from '../../../main/cli/bundle/lazy-undici-http2.ts';

// undici-core.ts keeps node:http2 unloaded until a connection negotiates HTTP/2, from its
// sources and bundled with undici's files as the CLI's bundle is. Each case runs in a process
// of its own: this one has loaded undici (and HTTP/2) already.
const root = resolve(import.meta.dirname, '../../..');
const undiciCore = join(root, 'main/core/gateway/http/undici-core.ts');

/**
 * undici-core.ts bundled with undici's files as the CLI's bundle does (build-cli-bundle.ts), in
 * the checkout's out/ (llhttp's WebAssembly is required from its node_modules).
 */
async function bundleUndiciCore(dir: string): Promise<string> {
  const bundle = await rolldown({
    input: undiciCore,
    platform: 'node',
    external: [/^node:/],
    plugins: [lazyUndiciHttp2()],
    logLevel: 'warn',
  });
  try {
    await bundle.write({
      dir,
      format: 'cjs',
      entryFileNames: '[name].cjs',
      comments: { jsdoc: false },
    });
  } finally {
    await bundle.close();
  }
  return join(dir, 'undici-core.cjs');
}

/**
 * Runs `body` after importing `core` (undici-core, from its source or bundled), in a new
 * process (asynchronously: the server it may call answers from this one).
 */
async function inFreshProcess(core: string, body: string): Promise<string> {
  const script = `import { Agent, request } from ${JSON.stringify(core)};\n${body}`;
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [
    '--input-type=module',
    '-e',
    script,
  ]);
  expect(stderr).toBe('');
  return stdout.trim();
}

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

let out = '';
let bundled = '';
beforeAll(async () => {
  mkdirSync(join(root, 'out'), { recursive: true });
  out = mkdtempSync(join(root, 'out', 'undici-h2-test-'));
  bundled = await bundleUndiciCore(out);
}, 60_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe.skipIf(!hasOpenssl)('a server that offers HTTP/2', () => {
  let dir: string;
  let server: Http2SecureServer;
  let url: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'atelier-h2-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    server = createSecureServer(
      {
        key: readFileSync(join(dir, 'key.pem')),
        cert: readFileSync(join(dir, 'cert.pem')),
        allowHTTP1: true,
      },
      (req, res) => res.end(JSON.stringify({ version: req.httpVersion, path: req.url })),
    );
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe.each([
    ['from its sources', () => undiciCore],
    ['bundled with undici’s files, as in the CLI’s bundle', () => bundled],
  ])('undici-core %s', (_name, core) => {
    it('loads no HTTP/2 code with undici', async () => {
      const loaded = await inFreshProcess(
        core(),
        `console.log(process.moduleLoadList.some((m) => m.includes('http2')));`,
      );
      expect(loaded).toBe('false');
    });

    it('speaks HTTP/2 to an Agent allowed it, its client loaded on that first connection', async () => {
      const answer = await inFreshProcess(
        core(),
        `
        const agent = new Agent({ allowH2: true, connect: { rejectUnauthorized: false } });
        const before = process.moduleLoadList.some((m) => m.includes('http2'));
        const response = await request(new URL(${JSON.stringify(url)} + '/h2?x=1'), {
          method: 'GET', headers: {}, signal: new AbortController().signal, dispatcher: agent,
        });
        console.log(JSON.stringify({ before, status: response.statusCode, body: await response.body.json() }));
        await agent.close();
      `,
      );
      expect(JSON.parse(answer)).toEqual({
        before: false,
        status: 200,
        body: { version: '2.0', path: '/h2?x=1' },
      });
    });
  });
});
