import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../../../main/core/gateway/client.ts';

const MODELS = JSON.stringify({ object: 'list', data: [{ id: 'flux-schnell', object: 'model' }] });

/** A gateway whose answers wait until the test lets them go. */
async function heldGateway() {
  const held: ServerResponse[] = [];
  let arrived: () => void = () => {};
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  let socketClosed: () => void = () => {};
  const socketGone = new Promise<void>((resolve) => (socketClosed = resolve));
  const server = createServer((_request, answer) => {
    held.push(answer);
    arrived();
  });
  server.on('connection', (socket) => socket.on('close', () => socketClosed()));
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const release = () => {
    for (const answer of held.splice(0)) {
      answer.writeHead(200, { 'content-type': 'application/json' }).end(MODELS);
    }
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrival,
    release,
    /** Resolves once the client's connection is closed. */
    socketGone,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

const clientOf = (gateway: { url: string }) =>
  createGatewayClient({ profile: { baseUrl: gateway.url }, apiKey: 'sk-test-close' });

describe("closing the gateway client's connections", () => {
  it('lets a request in flight finish before the connections close', async () => {
    const gateway = await heldGateway();
    const client = clientOf(gateway);
    try {
      const models = client.listModels();
      await gateway.arrival;
      let closed = false;
      const closing = client.close().then(() => (closed = true));
      // (the answer is still held: the close must wait for it)
      await new Promise((turn) => setImmediate(turn));
      expect(closed).toBe(false);
      gateway.release();
      const outcome = await models;
      expect(outcome.ok).toBe(true);
      await closing;
      expect(closed).toBe(true);
    } finally {
      gateway.release();
      await gateway.close();
    }
  });

  it('with nothing in flight, refuses new requests at once and ends the idle connections soon after, without holding the process', async () => {
    const gateway = await heldGateway();
    const client = clientOf(gateway);
    try {
      const models = client.listModels();
      await gateway.arrival;
      gateway.release();
      expect((await models).ok).toBe(true);
      const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
      const before = timers();
      await client.close();
      // (the idle sockets' teardown waits on a timer that keeps no process alive: a CLI that
      // ends meanwhile leaves them to the system)
      expect(timers()).toBe(before);
      const refused = await client.listModels();
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.sent).toBe(false);
      // (the server keeps an idle connection open: only the client can end it here)
      await gateway.socketGone;
    } finally {
      await gateway.close();
    }
  });
});
