import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';

let gateway: RunningGateway;
afterEach(() => gateway?.close());

const ledger = (key: string | null) =>
  fetch(`${gateway.url}/_simulator/ledger`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });

describe('GET /_simulator/ledger', () => {
  it("shows the calling key's charged calls, as the in-process ledger has them", async () => {
    gateway = await startGateway({
      keys: [
        { key: 'sk-first-000000000000', name: 'first' },
        { key: 'sk-other-000000000000', name: 'other' },
      ],
      faults: '504@2',
    });
    for (const key of ['sk-first-000000000000', 'sk-first-000000000000', 'sk-other-000000000000']) {
      await fetch(`${gateway.url}/v1/images/generations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ model: 'flux-schnell', prompt: 'a gull', size: '64x64' }),
      });
    }
    await gateway.idle();
    const response = await ledger('sk-first-000000000000');
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      entries: Array<Record<string, unknown>>;
      charged: number;
      balance: number;
    };
    const mine = gateway.ledger.entries().filter((e) => e.key === 'sk-first-000000000000');
    expect(body.entries).toHaveLength(2); // the 504 came after the work: it is charged too
    expect(body.entries.map((e) => e['requestId'])).toEqual(mine.map((e) => e.requestId));
    expect(body.entries.every((e) => !('key' in e))).toBe(true); // never the key itself
    expect(body.charged).toBe(gateway.ledger.totalCharged('sk-first-000000000000'));
    expect(body.balance).toBe(gateway.ledger.balance);
  });

  it('answers 401 without a key, as every authenticated route does', async () => {
    gateway = await startGateway();
    expect((await ledger(null)).status).toBe(401);
  });
});
