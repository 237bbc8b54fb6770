import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as undici from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from '../../../main/core/gateway/http/undici-core.ts';

// The gateway client loads two of undici's files by path (main/core/gateway/http/undici-core.ts):
// they must be the very classes and calls undici's index exports.
let url: string;
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    res.writeHead(201, { 'content-type': 'application/json', 'x-echo': req.headers['x-a'] ?? '' });
    res.end(JSON.stringify({ method: req.method, url: req.url, body }));
  });
});
beforeAll(async () => {
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

describe('undici-core: undici’s Agent and request() alone', () => {
  it('is the Agent undici exports, with the request API on it', () => {
    expect(Agent).toBe(undici.Agent);
    const agent = new Agent();
    expect(typeof agent.request).toBe('function');
    void agent.close();
  });

  it('sends as undici’s request(url, { dispatcher }) does: method, path and query, headers, body', async () => {
    const agent = new Agent();
    try {
      const answer = await request(new URL(`${url}/v1/images/generations?x=1&y=2`), {
        method: 'POST',
        headers: { 'x-a': 'b', 'content-type': 'application/json' },
        body: '{"prompt":"fox"}',
        signal: new AbortController().signal,
        dispatcher: agent,
      });
      expect(answer.statusCode).toBe(201);
      expect(answer.headers['x-echo']).toBe('b');
      expect(await answer.body.json()).toEqual({
        method: 'POST',
        url: '/v1/images/generations?x=1&y=2',
        body: '{"prompt":"fox"}',
      });
    } finally {
      await agent.close();
    }
  });

  it('rejects an aborted request with the signal’s reason', async () => {
    const agent = new Agent();
    const controller = new AbortController();
    controller.abort(new Error('stopping'));
    try {
      await expect(
        request(new URL(`${url}/x`), {
          method: 'GET',
          headers: {},
          signal: controller.signal,
          dispatcher: agent,
        }),
      ).rejects.toThrow('stopping');
    } finally {
      await agent.close();
    }
  });
});
