import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, readBody } from '../../../main/simulator/http.ts';

let server: Server | null = null;
afterEach(() => {
  server?.close();
  server = null;
});

/** Posts `parts` (as separate writes) to a server whose handler runs readBody(limit). */
async function post(parts: string[], limit: number): Promise<Buffer | ApiError | Error> {
  let outcome!: Promise<Buffer | ApiError | Error>;
  server = createServer((req, res) => {
    outcome = readBody(req, limit).catch((error: Error) => error);
    void outcome.then(() => res.end());
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST' }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', () => resolve());
    for (const part of parts) req.write(part);
    req.end();
  });
  return outcome;
}

describe('readBody', () => {
  it('returns the whole body, however it arrived', async () => {
    const body = await post(['{"a":', '1}'], 1024);
    expect(body).toBeInstanceOf(Buffer);
    expect((body as Buffer).toString()).toBe('{"a":1}');
  });

  it('refuses a body over the limit with 413', async () => {
    const error = await post(['x'.repeat(600), 'y'.repeat(600)], 1000);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 413, code: 'request_too_large' });
  });
});
