import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { contract } from '../../../shared/api/contract.ts';
import { APP_INFO, batchSummary, QUEUE_STATE } from '../../support/fake-served-app.ts';
import { startTestHost } from './harness.ts';

const MiB = 1024 * 1024;

describe('web host: calls', () => {
  it('round-trips methods of the contract as JSON Results, never cached', async () => {
    const t = await startTestHost();
    const info = await t.call('app', 'info', {});
    expect(info.status).toBe(200);
    expect(info.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(info.headers['cache-control']).toBe('no-store');
    expect(info.json).toEqual({ ok: true, value: APP_INFO });
    expect(contract.app.info.output.parse(info.json.value)).toEqual(APP_INFO);

    // no body at all: the method's defaults apply
    const state = await t.call('queue', 'state');
    expect(state.json).toEqual({ ok: true, value: QUEUE_STATE });

    const list = await t.call('batches', 'list', { limit: 2 });
    expect(list.json.value).toEqual({
      items: [batchSummary(1, 'First'), batchSummary(2, 'Second')],
      next: null,
    });
    expect(t.app.calls).toContainEqual({ method: 'batches.list', input: { limit: 2 } });
  });

  it('answers 404 for a method the contract does not have, whatever the object has', async () => {
    const t = await startTestHost();
    for (const [area, method] of [
      ['nope', 'info'],
      ['app', 'nope'],
      ['app', 'constructor'],
      ['__proto__', 'toString'],
      ['batches', 'hasOwnProperty'],
    ]) {
      const reply = await t.call(area!, method!, {});
      expect(reply.status, `${area}.${method}`).toBe(404);
      expect(reply.json.error.code).toBe('not-found');
    }
    expect((await t.get('/api/app/info')).status).toBe(404);
    expect((await t.get('/api')).status).toBe(404);
  });

  it('answers 400 with the schema issues when the input breaks the contract', async () => {
    const t = await startTestHost();
    const reply = await t.call('batches', 'list', { limit: 0 });
    expect(reply.status).toBe(400);
    expect(reply.json.ok).toBe(false);
    expect(reply.json.error.code).toBe('invalid-argument');
    expect(reply.json.error.message).toMatch(/^batches\.list: limit:/);
    expect(reply.json.error.details.issues[0].path).toEqual(['limit']);
    expect(t.app.calls).toEqual([]);

    const junk = await t.pool.request({
      method: 'POST',
      path: '/api/batches/list',
      headers: { authorization: t.authorization, 'content-type': 'application/json' },
      body: '{"limit": ',
    });
    expect(junk.statusCode).toBe(400);
    expect(((await junk.body.json()) as { error: { message: string } }).error.message).toMatch(
      /not valid JSON/,
    );
  });

  it('answers 415 for a body that is not declared JSON (a form cannot post here)', async () => {
    const t = await startTestHost();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
      const reply = await t.call('app', 'info', {}, { 'content-type': type });
      expect(reply.status, type).toBe(415);
      expect(reply.json.error.code).toBe('invalid-argument');
    }
    const charset = await t.call(
      'app',
      'info',
      {},
      { 'content-type': 'application/json; charset=utf-8' },
    );
    expect(charset.status).toBe(200);
  });

  it('answers 413 past 1 MiB, and past 96 MiB for batches.create and batches.check', async () => {
    const t = await startTestHost();
    const big = { limit: 10, pad: 'x'.repeat(MiB) };
    const tooBig = await t.call('batches', 'list', big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.json.error).toEqual({
      code: 'invalid-argument',
      message: expect.stringMatching(/larger than 1 MiB/),
    });
    expect(t.app.calls).toEqual([]);

    const pasted = { source: { kind: 'text', fileName: 'p.txt', text: 'a cat\n'.repeat(MiB / 2) } };
    const check = await t.call('batches', 'check', pasted);
    expect(check.status).toBe(200);
    expect(t.app.calls.map((c) => c.method)).toEqual(['batches.check']);

    // refused from the declared length, before the body is read: a raw socket sends only a bit
    const head = await rawPost(
      t.port,
      t.authorization,
      '/api/batches/create',
      96 * MiB + 1,
      '{"source"',
    );
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head).toMatch(/larger than 96 MiB/);
    const underLimit = await rawPost(t.port, t.authorization, '/api/batches/list', 2 * MiB, '{');
    expect(underLimit).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('maps error codes to statuses and keeps the Result shape', async () => {
    const t = await startTestHost();
    const cases: Array<[string, string, unknown, number, string]> = [
      ['batches', 'get', { id: 7 }, 404, 'not-found'],
      ['queue', 'pause', {}, 409, 'conflict'],
      ['jobs', 'get', { id: 1 }, 422, 'gateway-unreachable'],
      ['batches', 'rename', { id: 1, name: 'x' }, 500, 'internal'],
      // a method the fake leaves out: the handler is missing, which is a bug of the service
      ['models', 'catalogue', {}, 500, 'internal'],
    ];
    for (const [area, method, input, status, code] of cases) {
      const reply = await t.call(area, method, input);
      expect(reply.status, `${area}.${method}`).toBe(status);
      expect(reply.json).toEqual({ ok: false, error: { code, message: expect.any(String) } });
    }
    expect((await t.call('batches', 'get', { id: 7 })).json.error.message).toBe(
      'Batch 7 does not exist.',
    );
    // internal failures are logged for whoever runs the host
    expect(t.log).toContainEqual('error batches.rename failed: database is locked');
    expect(t.log).toContainEqual(
      expect.stringMatching(/^error POST \/api\/batches\/rename -> 500/),
    );
  });
});

/** Declares `length` bytes, sends `start` only, and returns what the server answers meanwhile. */
function rawPost(port: number, authorization: string, path: string, length: number, start: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
      if (/\r\n\r\n[\s\S]*\}\}$/.test(answer)) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ${authorization}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${start}`,
    );
  });
}
