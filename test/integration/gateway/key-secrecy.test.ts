import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createGatewayClient, type GatewayClient } from '../../../main/core/gateway/client.ts';
import { GatewayError } from '../../../main/core/gateway/http/errors.ts';
import type { GatewayOptions } from '../../../main/simulator/index.ts';
import { closeLater, rig } from './harness.ts';

const KEY = 'sk-secret-7f3a9c1e5b2d4f6a8c0e';
const SHAPELESS_KEY = 'QZ7-plain-token-without-prefix-91';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** How a gateway may echo a key: upper case, without its prefix, URL-encoded, in base64. */
function echoesOf(key: string): string[] {
  return [
    key,
    key.replace(/^sk-/, ''),
    key.toUpperCase(),
    encodeURIComponent(key),
    b64(key),
    b64(`:${key}`),
    b64(`user:${key}`),
  ];
}

/** A hostile gateway: it echoes the Authorization header back in its error messages. */
async function echoingGateway(seen: IncomingHttpHeaders[]): Promise<string> {
  const server = createServer((req, res) => {
    seen.push(req.headers);
    const auth = req.headers.authorization ?? '';
    const key = auth.slice(7);
    res.writeHead(400, {
      'content-type': 'application/json',
      'x-svc-request-id': `req_${b64(`user:${key}`)}`,
    });
    res.end(
      JSON.stringify({
        error: {
          type: 'invalid_request_error',
          code: 'bad',
          message: `You sent ${auth}, raw key ${echoesOf(key).join(', ')}`,
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeLater(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe('the key never appears in an error message or a log line', () => {
  const printed: string[] = [];
  beforeEach(() => {
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        printed.push(args.map(String).join(' '));
      });
    }
  });
  afterEach(() => {
    vi.restoreAllMocks();
    printed.length = 0;
  });

  it('across every failing scenario', async () => {
    const texts: string[] = [];
    const record = (value: unknown) =>
      texts.push(typeof value === 'string' ? value : JSON.stringify(value));
    const request = { model: 'flux-schnell', prompt: 'a lighthouse', size: '32x32' };
    const imageCalls = (client: GatewayClient) => [
      client.generateImage(request),
      client.generateAdvanced({ ...request, model: 'flux-pro' }),
      client.generateImage({ ...request, size: '32×32' }),
      client.chat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      client.submitVideo({ model: 'sora-2', prompt: 'waves' }),
      client.getVideo({ id: 'missing' }),
      client.listModels(),
    ];

    for (const [faults, options] of [
      ['429@1+2+3+4+5+6+7', {}],
      ['500@1+2+3+4+5+6+7', {}],
      ['504@1+2+3+4+5+6+7', {}],
      ['reset@1+2+3+4+5+6+7', {}],
      ['empty@1', {}],
      ['', { balance: 1 }],
      ['', { keys: [{ key: KEY, quotaCap: 1 }] }],
      ['', { keys: [{ key: KEY, expiresAt: 1 }] }],
      ['', { keys: [{ key: KEY, models: ['gpt-4o-mini'] }] }],
    ] satisfies Array<[string, GatewayOptions]>) {
      const { client, log } = await rig(
        { keys: [{ key: KEY }], ...options, faults },
        { apiKey: KEY },
      );
      for (const outcome of await Promise.all(imageCalls(client))) record(outcome);
      const stream = await (async () => {
        for await (const piece of client.chatStream({
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: 'x' }],
        }))
          void piece;
      })().catch((error: unknown) => error);
      if (stream instanceof GatewayError) record(stream.message);
      texts.push(...log);
    }

    // A wrong key, a key read that fails with the key in its message, a hostile echo.
    const wrong = await rig({}, { apiKey: KEY });
    record(await wrong.client.generateImage(request));
    texts.push(...wrong.log);
    const throwing = await rig(
      {},
      {
        apiKey: () => {
          throw new Error(`keychain broke while reading ${KEY}`);
        },
      },
    );
    record(await throwing.client.generateImage(request));
    texts.push(...throwing.log);

    for (const key of [KEY, SHAPELESS_KEY]) {
      const seen: IncomingHttpHeaders[] = [];
      const log: string[] = [];
      const client = createGatewayClient({
        profile: { baseUrl: await echoingGateway(seen) },
        apiKey: key,
        log: (line) => log.push(line),
      });
      closeLater(() => client.close());
      const outcome = await client.generateImage(request);
      expect(outcome.ok).toBe(false);
      // The echo really carried the key: the test would see it if redaction failed.
      expect(seen[0]?.authorization).toBe(`Bearer ${key}`);
      record(outcome);
      texts.push(...log);
    }

    expect(texts.length).toBeGreaterThan(80);
    const everything = [...texts, ...printed].join('\n');
    for (const secret of [...echoesOf(KEY), ...echoesOf(SHAPELESS_KEY)]) {
      expect(everything.split('\n').filter((line) => line.includes(secret))).toEqual([]);
    }
    expect(everything).toContain('redacted');
  });

  it('is never sent to a file host other than the gateway', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const storage = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([1, 2, 3]));
    });
    await new Promise<void>((resolve) => storage.listen(0, '127.0.0.1', resolve));
    closeLater(() => new Promise<void>((resolve) => storage.close(() => resolve())));
    const { client } = await rig({ keys: [{ key: KEY }] }, { apiKey: KEY });
    const url = `http://127.0.0.1:${(storage.address() as { port: number }).port}/cdn/image.png?sig=abc`;
    const outcome = await client.downloadImage(url);
    expect(outcome.ok).toBe(true);
    if (outcome.ok) await new Response(outcome.value.body).arrayBuffer();
    expect(seen).toHaveLength(1);
    expect(seen[0]?.authorization).toBeUndefined();
  });

  it('nor are the extra headers (often a second credential): they go to the gateway only', async () => {
    const hosts = { gateway: [] as IncomingHttpHeaders[], storage: [] as IncomingHttpHeaders[] };
    const recorder = async (seen: IncomingHttpHeaders[]) => {
      const server = createServer((req, res) => {
        seen.push(req.headers);
        res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([1, 2, 3]));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      closeLater(() => new Promise<void>((resolve) => server.close(() => resolve())));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    };
    const gatewayUrl = await recorder(hosts.gateway);
    const storageUrl = await recorder(hosts.storage);
    const { client } = await rig(
      {},
      {
        apiKey: KEY,
        profile: { baseUrl: gatewayUrl, extraHeaders: { 'X-Org-Token': 'org-secret-42' } },
      },
    );
    for (const url of [`${gatewayUrl}/files/a.png`, `${storageUrl}/cdn/a.png?sig=abc`]) {
      const outcome = await client.downloadImage(url);
      expect(outcome.ok).toBe(true);
      if (outcome.ok) await new Response(outcome.value.body).arrayBuffer();
    }
    expect(hosts.gateway).toHaveLength(1);
    expect(hosts.gateway[0]).toMatchObject({
      authorization: `Bearer ${KEY}`,
      'x-org-token': 'org-secret-42',
    });
    expect(hosts.storage).toHaveLength(1);
    expect(hosts.storage[0]?.authorization).toBeUndefined();
    expect(hosts.storage[0]?.['x-org-token']).toBeUndefined();
  });

  it('nor do they follow a redirect from the gateway to a storage host', async () => {
    const seen = { gateway: [] as IncomingHttpHeaders[], storage: [] as IncomingHttpHeaders[] };
    const storage = createServer((req, res) => {
      seen.storage.push(req.headers);
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([1, 2, 3]));
    });
    await new Promise<void>((resolve) => storage.listen(0, '127.0.0.1', resolve));
    closeLater(() => new Promise<void>((resolve) => storage.close(() => resolve())));
    const storageUrl = `http://127.0.0.1:${(storage.address() as { port: number }).port}`;
    const gateway = createServer((req, res) => {
      seen.gateway.push(req.headers);
      res.writeHead(302, { location: `${storageUrl}/cdn/a.png?sig=abc` }).end('moved');
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    closeLater(() => new Promise<void>((resolve) => gateway.close(() => resolve())));
    const gatewayUrl = `http://127.0.0.1:${(gateway.address() as { port: number }).port}`;
    const { client, sent } = await rig(
      {},
      {
        apiKey: KEY,
        profile: { baseUrl: gatewayUrl, extraHeaders: { 'X-Org-Token': 'org-secret-42' } },
      },
    );
    const outcome = await client.downloadImage(`${gatewayUrl}/files/a.png`);
    if (!outcome.ok) throw new Error(outcome.message);
    expect([...new Uint8Array(await new Response(outcome.value.body).arrayBuffer())]).toEqual([
      1, 2, 3,
    ]);
    expect(sent).toEqual([`${gatewayUrl}/files/a.png`, `${storageUrl}/cdn/a.png?sig=abc`]);
    expect(seen.gateway[0]).toMatchObject({ authorization: `Bearer ${KEY}` });
    expect(seen.storage).toHaveLength(1);
    expect(seen.storage[0]?.authorization).toBeUndefined();
    expect(seen.storage[0]?.['x-org-token']).toBeUndefined();
  });
});
